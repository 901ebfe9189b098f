import type { Caller, RateLimitGuard } from '../../auth/limits.ts';
import type { TenantStore } from '../../auth/tenants.ts';
import type { Principal } from '../../domain/principal.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, ReadOnlyError, UnauthorizedError, ValidationError } from '../../platform/errors.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { type Credential, credentialPutOps, getCredential } from '../credential-items.ts';
import { hashPassword, verifyPassword } from '../password.ts';
import { checkPasswordPolicy } from '../password-policy.ts';
import type { SessionService } from './session-service.ts';

export interface PasswordChangeDeps {
  table: Table;
  clock: Clock;
  tenants: Pick<TenantStore, 'getUser'>;
  sessions: Pick<SessionService, 'revokeAll'>;
  limits: Pick<RateLimitGuard, 'attempt'>;
}

const WRONG_CURRENT = 'this is not your current password';

/** A new password refused by the policy: 400 on `password`, saying why. */
export function policyRefusal(password: string, email: string): ValidationError | undefined {
  const why = checkPasswordPolicy(password, { email });
  return why === undefined ? undefined : ValidationError.field('password', why);
}

/**
 * The credential record with `password` set: a new one (version 1) or the user's, changed
 * (version + 1), with the condition that guards the write (created once; changed by no one else meanwhile).
 */
export async function withPassword(
  existing: Credential | undefined,
  who: { tenant_id: string; user_id: string; email: string },
  password: string,
  now: number,
) {
  const at = isoTime(now);
  const password_hash = await hashPassword(password);
  if (!existing)
    return {
      record: {
        ...who,
        email: who.email.toLowerCase(),
        password_hash,
        password_changed_at: at,
        version: 1,
        updated_at: at,
      },
      condition: { kind: 'itemNotExists' as const },
    };
  return {
    record: {
      ...existing,
      password_hash,
      password_changed_at: at,
      version: existing.version + 1,
      updated_at: at,
    },
    condition: { kind: 'compare' as const, attr: 'version', op: '=' as const, value: existing.version },
  };
}

/**
 * `POST /v1/me/password`: sets or changes the caller's password (the current one is required when
 * one is set; a wrong one counts as a failed authentication), then ends every other session of
 * theirs. API keys stay. A read-only API key may not; a viewer changes theirs signed in.
 */
export async function changePassword(
  deps: PasswordChangeDeps,
  caller: Caller,
  principal: Principal,
  input: { current_password?: string | undefined; password: string },
): Promise<{ revoked: number }> {
  if (principal.readOnly && principal.credential !== 'session') throw new ReadOnlyError();
  const user = await deps.tenants.getUser(principal.tenantId, principal.userId);
  if (!user) throw new UnauthorizedError();
  const refusal = policyRefusal(input.password, user.email);
  if (refusal) throw refusal;
  const existing = await getCredential(deps.table, principal.tenantId, principal.userId);
  if (existing?.password_hash) {
    const hash = existing.password_hash;
    const current = input.current_password;
    if (current === undefined)
      throw ValidationError.field('current_password', 'enter your current password to change it');
    await deps.limits.attempt(
      caller,
      `password:${principal.userId}`,
      async () => {
        if (!(await verifyPassword(current, hash)))
          throw ValidationError.field('current_password', WRONG_CURRENT);
      },
      (error) => error instanceof ValidationError,
    );
  }
  const who = { tenant_id: principal.tenantId, user_id: principal.userId, email: user.email };
  const { record, condition } = await withPassword(existing, who, input.password, deps.clock.now());
  try {
    await deps.table.transact(credentialPutOps(record, condition));
  } catch (err) {
    if (err instanceof ConditionFailedError)
      throw new ConflictError('your credential changed meanwhile (another tab?): try again');
    throw err;
  }
  const except = principal.credential === 'session' ? principal.keyId : undefined;
  return { revoked: await deps.sessions.revokeAll(principal.tenantId, principal.userId, except) };
}
