import { createHash } from 'node:crypto';
import type { RateLimitGuard } from '../auth/rate-limit.ts';
import type { TenantStore } from '../auth/tenant-store.ts';
import type { AuditNote } from '../http/types.ts';
import {
  AccountDisabledError,
  ForbiddenError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { RateLimiter } from '../platform/rate-limiter.ts';
import type { Table } from '../store/table.ts';
import { type Credential, findLogins, getCredential } from './credential-items.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password.ts';
import type { SessionService, SignInRequest } from './session-service.ts';

/** A second factor's verdict on the code sent with a sign-in (lib/people/second-factor.ts). */
export type SecondFactorVerdict = 'ok' | 'required' | 'invalid';

export interface PasswordLoginDeps {
  table: Table;
  tenants: Pick<TenantStore, 'getTenant' | 'getUser'>;
  sessions: Pick<SessionService, 'start'>;
  /** Failed sign-ins per source address (and address and account), as for keys. */
  limits: Pick<RateLimitGuard, 'attempt'>;
  /** Failed sign-ins per account over all addresses: `authFailuresPerMinute` a minute (0: none). */
  limiter: RateLimiter;
  failuresPerMinute: number;
  logger: Logger;
  /** False when the team signs in with SSO only (lib/people/sso); absent: passwords allowed. */
  passwordAllowed?: (tenantId: string) => Promise<boolean>;
  /** The credential's second factor against the code sent; absent: none is asked. */
  secondFactor?: (credential: Credential, code: string | undefined) => Promise<SecondFactorVerdict>;
}

export interface SignIn {
  email: string;
  password: string;
  totp?: string | undefined;
  tenant?: string | undefined;
}

const WRONG = 'wrong e-mail or password';
const TOTP_INVALID = 'the code is wrong or was used already';

/** A failure that is a guess: a wrong password, or a wrong second-factor code. */
const isWrongGuess = (error: unknown) =>
  error instanceof UnauthorizedError ||
  (error instanceof ValidationError && error.details?.some((d) => d.message === TOTP_INVALID) === true);

const accountTag = (email: string) =>
  createHash('sha256').update(email, 'utf8').digest('base64url').slice(0, 16);

/**
 * `POST /v1/session` (docs/auth.md "Signing in with a password"): the e-mail's logins, the
 * password verified against each (or, for an unknown e-mail, against a dummy hash: the same work
 * and the same answer), the team's SSO rule and second factor, then a new session. Failures are
 * counted per address (rateLimit.attempt) and per account, so a spray from many addresses at one
 * person is bounded too; past either, even the right password gets 429.
 */
export function createPasswordLogin(deps: PasswordLoginDeps) {
  const accountPolicy =
    deps.failuresPerMinute > 0
      ? { burst: deps.failuresPerMinute, perSecond: deps.failuresPerMinute / 60 }
      : undefined;

  const failOpen = async (op: () => Promise<{ allowed: boolean; retryAfterSeconds: number }>) => {
    try {
      return await op();
    } catch (err) {
      deps.logger.warn('rate limiter unavailable; request let through', { limit: 'account', err });
      return undefined;
    }
  };
  const blocked = (decision: { allowed: boolean; retryAfterSeconds: number } | undefined) => {
    if (decision && !decision.allowed)
      throw new RateLimitedError(decision.retryAfterSeconds, {
        message: 'too many failed sign-ins for this account: wait a minute',
      });
  };

  /** Runs `verify` under the account's failure bucket. */
  const perAccount = async <T>(email: string, verify: () => Promise<T>): Promise<T> => {
    if (!accountPolicy) return verify();
    const name = `LOGIN#${accountTag(email)}`;
    const gate = failOpen(() => deps.limiter.peek(name, accountPolicy));
    try {
      const result = await verify();
      blocked(await gate);
      return result;
    } catch (error) {
      blocked(await gate);
      if (isWrongGuess(error)) blocked(await failOpen(() => deps.limiter.take(name, accountPolicy)));
      throw error;
    }
  };

  /** The credential whose password matches, among the e-mail's logins (one team, or the first that matches). */
  const matching = async (input: SignIn): Promise<Credential> => {
    const logins = (await findLogins(deps.table, input.email)).filter(
      (login) => input.tenant === undefined || login.tenant_id === input.tenant,
    );
    for (const login of logins) {
      const credential = await getCredential(deps.table, login.tenant_id, login.user_id);
      if (credential?.password_hash && (await verifyPassword(input.password, credential.password_hash)))
        return credential;
    }
    if (logins.length === 0) await verifyPassword(input.password, DUMMY_PASSWORD_HASH);
    throw new UnauthorizedError(WRONG);
  };

  const verify = async (input: SignIn) => {
    const credential = await matching(input);
    const [tenant, user] = await Promise.all([
      deps.tenants.getTenant(credential.tenant_id),
      deps.tenants.getUser(credential.tenant_id, credential.user_id),
    ]);
    if (!tenant || !user) throw new UnauthorizedError(WRONG);
    if (tenant.disabled) throw new AccountDisabledError();
    if (deps.passwordAllowed && !(await deps.passwordAllowed(tenant.id)))
      throw new ForbiddenError('this team signs in with SSO');
    const verdict = deps.secondFactor ? await deps.secondFactor(credential, input.totp) : 'ok';
    if (verdict === 'required')
      throw ValidationError.field('totp', 'enter the code of your authenticator app (or a recovery code)');
    if (verdict === 'invalid') throw ValidationError.field('totp', TOTP_INVALID);
    return user;
  };

  return {
    /** Signs in: the new session's Set-Cookie and the audit note naming who signed in. */
    async signIn(
      req: SignInRequest,
      parse: () => SignIn,
    ): Promise<{ setCookie: string; sessionId: string; audit: AuditNote }> {
      // The body is parsed inside the limits: a blocked address gets 429 whatever it sends.
      let input: SignIn | undefined;
      let malformed: unknown;
      try {
        input = parse();
      } catch (error) {
        malformed = error;
      }
      const email = input?.email.trim().toLowerCase() ?? '';
      const user = await deps.limits.attempt(
        req,
        `login:${email}`,
        () => (input ? perAccount(email, () => verify({ ...input, email })) : Promise.reject(malformed)),
        isWrongGuess,
      );
      const session = await deps.sessions.start({
        tenantId: user.tenant_id,
        userId: user.id,
        method: 'password',
        req,
      });
      return {
        ...session,
        audit: {
          tenantId: user.tenant_id,
          actor: { type: 'user', id: user.id, label: user.email },
          action: 'session.create',
          target: { type: 'user', id: user.id },
        },
      };
    },
  };
}
