import { createHash } from 'node:crypto';
import type { RateLimitGuard } from '../auth/limits.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { AuditNote } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import {
  AccountDisabledError,
  ForbiddenError,
  UnauthorizedError,
  ValidationError,
} from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { RateLimiter } from '../platform/rate-limiter.ts';
import type { Table } from '../store/table.ts';
import { type Credential, findLogins, getCredential } from './credential-items.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password.ts';
import { createAccountGate, isWrongGuess, TOTP_INVALID } from './sign-in/account-gate.ts';
import type { SessionService, SignInRequest } from './sign-in/session-service.ts';
import type { SignInAlarm } from './sign-in/sign-in-alarm.ts';
import { deviceOf, knownDevice, newDevice, rememberDevice } from './sign-in/sign-in-device.ts';

/** A second factor's verdict on the code sent with a sign-in (lib/people/second-factor.ts). */
export type SecondFactorVerdict = 'ok' | 'required' | 'invalid';

export interface PasswordLoginDeps {
  table: Table;
  tenants: Pick<TenantStore, 'getTenant' | 'getUser'>;
  sessions: Pick<SessionService, 'start' | 'deviceCookie'>;
  /** Failed sign-ins per source address (and address and account), as for keys. */
  limits: Pick<RateLimitGuard, 'attempt'>;
  /** Failed sign-ins per account over all addresses: `authFailuresPerMinute` a minute (0: none). */
  limiter: RateLimiter;
  failuresPerMinute: number;
  clock: Clock;
  logger: Logger;
  /** Tells the person (and the audit log) of failed sign-ins past the account's limit. */
  alarm?: SignInAlarm | undefined;
  /** False when the team signs in with SSO only (lib/people/sso); absent: passwords allowed. */
  passwordAllowed?: (tenantId: string) => Promise<boolean>;
  /**
   * The credential's second factor against the code sent, from a browser known to the account or
   * not, with an e-mailed sign-in link or not (lib/people/sign-in/code-lock.ts); absent: none is asked.
   */
  secondFactor?: (
    credential: Credential,
    code: string | undefined,
    access: { known: boolean; link: string | undefined },
  ) => Promise<SecondFactorVerdict>;
}

export interface SignIn {
  email: string;
  password: string;
  totp?: string | undefined;
  tenant?: string | undefined;
  /** The token of the sign-in link e-mailed to an account locked after wrong codes. */
  link?: string | undefined;
}

const WRONG = 'wrong e-mail or password';

const accountTag = (email: string) =>
  createHash('sha256').update(email, 'utf8').digest('base64url').slice(0, 16);

/**
 * `POST /v1/session` (docs/auth.md "Signing in with a password"): the e-mail's logins, the
 * password verified against each (or, for an unknown e-mail, against a dummy hash: the same work
 * and the same answer), the team's SSO rule and second factor, then a new session and the
 * browser's device cookie. Failures are counted per address (rateLimit.attempt) and per account
 * (lib/people/sign-in/account-gate.ts: past its limit unknown browsers are slowed, never locked out).
 */
export function createPasswordLogin(deps: PasswordLoginDeps) {
  const gate = createAccountGate(deps);

  /** The e-mail's credentials with a password (of one team when `tenant` is given). */
  const candidates = async (input: SignIn): Promise<Credential[]> => {
    const logins = (await findLogins(deps.table, input.email)).filter(
      (login) => input.tenant === undefined || login.tenant_id === input.tenant,
    );
    const found = await Promise.all(
      logins.map((login) => getCredential(deps.table, login.tenant_id, login.user_id)),
    );
    return found.filter((c): c is Credential => c?.password_hash !== undefined);
  };

  /** The credential whose password matches, among the e-mail's (one team, or the first that matches). */
  const matching = async (input: SignIn, credentials: Credential[]): Promise<Credential> => {
    for (const credential of credentials)
      if (credential.password_hash && (await verifyPassword(input.password, credential.password_hash)))
        return credential;
    if (credentials.length === 0) await verifyPassword(input.password, DUMMY_PASSWORD_HASH);
    throw new UnauthorizedError(WRONG);
  };

  const verify = async (input: SignIn, credentials: Credential[], known: boolean) => {
    const credential = await matching(input, credentials);
    const [tenant, user] = await Promise.all([
      deps.tenants.getTenant(credential.tenant_id),
      deps.tenants.getUser(credential.tenant_id, credential.user_id),
    ]);
    if (!tenant || !user) throw new UnauthorizedError(WRONG);
    if (tenant.disabled) throw new AccountDisabledError();
    if (deps.passwordAllowed && !(await deps.passwordAllowed(tenant.id)))
      throw new ForbiddenError('this team signs in with SSO');
    const access = { known, link: input.link };
    const verdict = deps.secondFactor ? await deps.secondFactor(credential, input.totp, access) : 'ok';
    if (verdict === 'required')
      throw ValidationError.field('totp', 'enter the code of your authenticator app (or a recovery code)');
    if (verdict === 'invalid') throw ValidationError.field('totp', TOTP_INVALID);
    return user;
  };

  /** The account's gate around the password and code: a browser that signed in before is known. */
  const guarded = async (input: SignIn, req: SignInRequest, device: string | undefined) => {
    const credentials = await candidates(input);
    const known = knownDevice(credentials, device);
    const attempt = {
      account: accountTag(input.email),
      email: input.email,
      people: credentials.map((c) => ({ tenantId: c.tenant_id, userId: c.user_id })),
      address: req.sourceIp,
      known,
    };
    return gate.run(attempt, () => verify(input, credentials, known));
  };

  return {
    /** Signs in: the new session's Set-Cookie and the audit note naming who signed in. */
    async signIn(
      req: SignInRequest,
      parse: () => SignIn,
    ): Promise<{ setCookie: string; deviceCookie: string; sessionId: string; audit: AuditNote }> {
      // The body is parsed inside the limits: a blocked address gets 429 whatever it sends.
      let input: SignIn | undefined;
      let malformed: unknown;
      try {
        input = parse();
      } catch (error) {
        malformed = error;
      }
      const email = input?.email.trim().toLowerCase() ?? '';
      const device = deviceOf(req.headers);
      const user = await deps.limits.attempt(
        req,
        `login:${email}`,
        () => (input ? guarded({ ...input, email }, req, device) : Promise.reject(malformed)),
        isWrongGuess,
      );
      const session = await deps.sessions.start({
        tenantId: user.tenant_id,
        userId: user.id,
        method: 'password',
        req,
      });
      // The browser is remembered for this person (a new cookie for a browser without a good one).
      const raw = device ?? newDevice();
      await rememberDevice(deps, { tenantId: user.tenant_id, userId: user.id }, raw, deps.clock.now());
      return {
        ...session,
        deviceCookie: deps.sessions.deviceCookie(raw, req),
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
