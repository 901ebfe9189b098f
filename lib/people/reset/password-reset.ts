import { createHash, randomBytes } from 'node:crypto';
import { sourceKey } from '../../auth/limits.ts';
import type { EmailSender } from '../../domain/formats.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { AccountDisabledError, RateLimitedError, ValidationError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RateLimiter, RatePolicy } from '../../platform/rate-limiter.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { findLogins, getCredential } from '../credential-items.ts';
import { credentialChangeOps } from '../credential-write.ts';
import type {
  MailTransport,
  PasswordAllowed,
  PasswordPort,
  RevokeSessions,
  TenantOf,
  UserEmailOf,
} from '../ports.ts';
import { passwordResetMail, type ResetLink } from './password-reset-email.ts';
import { findPasswordReset, passwordResetCreatedOp, passwordResetUsedOp } from './password-reset-items.ts';

export interface PasswordResetDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  limiter: RateLimiter;
  tenant: TenantOf;
  userEmail: UserEmailOf;
  passwords: PasswordPort;
  /** Undefined until composed: sessions are then left as they are. */
  revokeSessions?: RevokeSessions | undefined;
  /** Undefined: every tenant allows passwords. */
  passwordAllowed?: PasswordAllowed | undefined;
  /** The runtime's e-mail transport and sender, and the console's address (the link); any missing: resets are off. */
  mail: {
    transport: MailTransport | undefined;
    from: EmailSender | undefined;
    publicUrl: string | undefined;
  };
}

/** How long a reset link works. */
export const RESET_TTL_MS = 30 * 60_000;
const TOKEN_PREFIX = 'vpr_';
const TOKEN_PATTERN = /^vpr_[0-9A-Za-z_-]{43}$/;
/** Requests per address and per e-mail address: a few an hour, a burst of a few. */
const PER_ADDRESS: RatePolicy = { burst: 10, perSecond: 10 / 3600 };
const PER_EMAIL: RatePolicy = { burst: 3, perSecond: 3 / 3600 };

const INVALID_TOKEN = 'the reset link is invalid, expired or already used';
const invalidToken = () => ValidationError.field('token', INVALID_TOKEN);

/** Whether a confirm failed on its token: a wrong guess, counted as a failed authentication. */
export const isInvalidResetToken = (error: unknown): boolean =>
  error instanceof ValidationError && error.details?.some((d) => d.message === INVALID_TOKEN) === true;

/** The error of every reset request while e-mail is not configured (docs/auth.md "Password reset"). */
const RESET_MAIL_OFF =
  'password reset by e-mail is off: the operator must configure e-mail (VIGIL_SMTP_URL and VIGIL_EMAIL_FROM locally, emailFrom in the cloud) and VIGIL_PUBLIC_URL';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Who a used reset link signed back in, for the audit log. */
export interface ResetDone {
  tenantId: string;
  userId: string;
  email: string;
}

/**
 * Password reset by e-mail (docs/auth.md "Password reset"): a request e-mails a link per team the
 * address has a password in, answering the same whether or not it has any; a link sets a new
 * password once, within 30 minutes, and ends the user's sessions.
 */
export function createPasswordResetService(deps: PasswordResetDeps) {
  const { table, clock } = deps;

  const take = (bucket: string, policy: RatePolicy) => deps.limiter.take(bucket, policy);

  /** The teams `email` may reset a password in: its sign-in lookups whose user, tenant and password stand. */
  const resettable = async (email: string) => {
    const found: Array<{ tenantId: string; userId: string; team: string; passwordChangedAt: string }> = [];
    for (const login of await findLogins(table, email)) {
      const [tenant, userEmail, credential, allowed] = await Promise.all([
        deps.tenant(login.tenant_id),
        deps.userEmail(login.tenant_id, login.user_id),
        getCredential(table, login.tenant_id, login.user_id),
        deps.passwordAllowed ? deps.passwordAllowed(login.tenant_id) : true,
      ]);
      if (!tenant || tenant.disabled || !allowed || userEmail?.toLowerCase() !== email) continue;
      if (credential?.password_hash === undefined) continue;
      found.push({
        tenantId: login.tenant_id,
        userId: login.user_id,
        team: tenant.name,
        passwordChangedAt: credential.password_changed_at ?? '',
      });
    }
    return found;
  };

  return {
    /**
     * Sends the reset e-mail when the address has a password anywhere; silent otherwise, and
     * past the address's own limit. 429 past the caller's address limit. Answers the teams
     * e-mailed (for the audit log; never sent to the caller).
     */
    async request(input: { email: string }, caller: { sourceIp?: string | undefined }) {
      const { transport, from, publicUrl } = deps.mail;
      if (!transport || !from || !publicUrl) throw new ValidationError(RESET_MAIL_OFF);
      const email = input.email.toLowerCase();
      if (caller.sourceIp) {
        const decision = await take(`PWRESET#ADDR#${sourceKey(caller.sourceIp)}`, PER_ADDRESS);
        if (!decision.allowed)
          throw new RateLimitedError(decision.retryAfterSeconds, {
            message: 'too many password reset requests from this address',
          });
      }
      // Past the e-mail address's own limit the answer stays the same: nothing tells it apart.
      if (!(await take(`PWRESET#MAIL#${sha256(email)}`, PER_EMAIL)).allowed) {
        deps.logger.info('password reset request over the e-mail address limit; nothing sent');
        return [];
      }
      const teams = await resettable(email);
      if (teams.length === 0) return [];
      const now = clock.now();
      const links: ResetLink[] = [];
      for (const team of teams) {
        const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
        await table.transact([
          passwordResetCreatedOp({
            token_hash: sha256(token),
            tenant_id: team.tenantId,
            user_id: team.userId,
            email,
            password_changed_at: team.passwordChangedAt,
            created_at: isoTime(now),
            expires_at: isoTime(now + RESET_TTL_MS),
          }),
        ]);
        links.push({ team: team.team, url: `${publicUrl}/reset?token=${encodeURIComponent(token)}` });
      }
      const deliveryId = `pwreset-${sha256(`${email}:${now}`).slice(0, 16)}`;
      const outcome = await transport.send(
        passwordResetMail({ from, to: email, links, minutes: RESET_TTL_MS / 60_000, deliveryId }),
      );
      if (!outcome.ok)
        deps.logger.warn('password reset e-mail not sent', { deliveryId, error: outcome.error });
      return teams;
    },

    /** Sets a new password with a reset link's token: once, unexpired, for a member still there. */
    async confirm(input: { token: string; password: string }): Promise<ResetDone> {
      const now = clock.now();
      const at = isoTime(now);
      if (!TOKEN_PATTERN.test(input.token)) throw invalidToken();
      const reset = await findPasswordReset(table, sha256(input.token));
      if (!reset || reset.expires_at <= at) throw invalidToken();
      const { tenant_id: tenantId, user_id: userId, email } = reset;
      const [tenant, userEmail, credential, allowed] = await Promise.all([
        deps.tenant(tenantId),
        deps.userEmail(tenantId, userId),
        getCredential(table, tenantId, userId),
        deps.passwordAllowed ? deps.passwordAllowed(tenantId) : true,
      ]);
      if (!tenant || !credential || !allowed || userEmail?.toLowerCase() !== email) throw invalidToken();
      if ((credential.password_changed_at ?? '') !== reset.password_changed_at) throw invalidToken();
      if (tenant.disabled) throw new AccountDisabledError();
      const refused = deps.passwords.policy(input.password, { email });
      if (refused !== undefined) throw ValidationError.field('password', refused);
      const passwordHash = await deps.passwords.hash(input.password);
      try {
        await table.transact([
          passwordResetUsedOp(reset, at),
          ...credentialChangeOps(credential, { password_hash: passwordHash, password_changed_at: at }, now),
        ]);
      } catch (err) {
        if (err instanceof ConditionFailedError) throw invalidToken();
        throw err;
      }
      await deps.revokeSessions?.(tenantId, userId);
      return { tenantId, userId, email };
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
