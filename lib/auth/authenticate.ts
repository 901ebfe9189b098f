import type { Principal } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import { AccountDisabledError, UnauthorizedError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { hashApiKey, isWellFormedApiKey, sameDigest } from './api-key.ts';
import type { KeyStore } from './key-store.ts';
import type { TenantStore } from './tenant-store.ts';

/** How often a key's last_used_at is written at most (per process). */
const TOUCH_INTERVAL_MS = 60_000;

export interface AuthenticatorDeps {
  keys: KeyStore;
  tenants: TenantStore;
  clock: Clock;
  logger: Logger;
}

/** Resolves `Authorization: Bearer <key>` to a principal: key hash -> tenant, user, role, read-only. */
export function createAuthenticator(deps: AuthenticatorDeps) {
  const lastTouched = new Map<string, number>();

  // last_used_at is written at most once a minute per key and process, never on every request.
  const touch = async (tenantId: string, keyId: string, now: number) => {
    const last = lastTouched.get(keyId) ?? 0;
    if (now - last < TOUCH_INTERVAL_MS) return;
    if (lastTouched.size > 10_000) lastTouched.clear();
    lastTouched.set(keyId, now);
    try {
      await deps.keys.touch(tenantId, keyId, now);
    } catch (err) {
      deps.logger.warn('could not record key use', { key_id: keyId, err });
    }
  };

  return async function authenticate(authorization: string | undefined): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    const raw = match?.[1];
    if (!raw || !isWellFormedApiKey(raw)) throw new UnauthorizedError();
    const hash = hashApiKey(raw);
    const lookup = await deps.keys.findByHash(hash);
    if (!lookup || !sameDigest(lookup.key_hash, hash)) throw new UnauthorizedError();
    const [tenant, user] = await Promise.all([
      deps.tenants.getTenant(lookup.tenant_id),
      deps.tenants.getUser(lookup.tenant_id, lookup.user_id),
    ]);
    if (!tenant || !user) throw new UnauthorizedError();
    if (tenant.disabled) throw new AccountDisabledError();
    await touch(tenant.id, lookup.key_id, deps.clock.now());
    return {
      tenantId: tenant.id,
      userId: user.id,
      keyId: lookup.key_id,
      role: user.role,
      readOnly: lookup.is_read_only,
    };
  };
}
