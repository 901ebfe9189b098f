import { sameDigest } from '../auth/api-key.ts';
import { AUTH_CACHE_MS } from '../auth/authenticate.ts';
import type { Tenant } from '../auth/records.ts';
import type { LocationPrincipal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { AccountDisabledError, UnauthorizedError } from '../platform/errors.ts';
import type { Table } from '../store/table.ts';
import { hashLocationKey, isWellFormedLocationKey } from './location-key.ts';
import { findLocationKeyByHash } from './location-key-items.ts';

const INVALID = 'missing or invalid location key';

export interface LocationAuthenticatorDeps {
  table: Table;
  clock: Clock;
  getTenant(tenantId: string): Promise<Tenant | undefined>;
}

/**
 * Resolves `Authorization: Bearer vlk_…` to a location principal (the `/v1/agent/*` routes). The
 * key's hash item is read on every request and never cached, so a revoked key is refused at once;
 * only an enabled tenant is reused for AUTH_CACHE_MS, as for API keys. Anything else offered (an
 * API key, a malformed key) is 401 without a lookup.
 */
export function createLocationAuthenticator(deps: LocationAuthenticatorDeps) {
  const enabledAt = new Map<string, number>();

  const tenantEnabled = async (tenantId: string, now: number): Promise<boolean | undefined> => {
    const readAt = enabledAt.get(tenantId);
    if (readAt !== undefined && now >= readAt && now - readAt < AUTH_CACHE_MS) return true;
    const tenant = await deps.getTenant(tenantId);
    if (!tenant) return undefined;
    if (tenant.disabled) {
      enabledAt.delete(tenantId);
      return false;
    }
    if (enabledAt.size >= 10_000) enabledAt.clear();
    enabledAt.set(tenantId, now);
    return true;
  };

  return async function authenticateLocation(authorization: string | undefined): Promise<LocationPrincipal> {
    const raw = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!raw || !isWellFormedLocationKey(raw)) throw new UnauthorizedError(INVALID);
    const hash = hashLocationKey(raw);
    const lookup = await findLocationKeyByHash(deps.table, hash);
    if (!lookup || !sameDigest(lookup.key_hash, hash)) throw new UnauthorizedError(INVALID);
    const enabled = await tenantEnabled(lookup.tenant_id, deps.clock.now());
    if (enabled === undefined) throw new UnauthorizedError(INVALID);
    if (!enabled) throw new AccountDisabledError();
    return {
      tenantId: lookup.tenant_id,
      locationId: lookup.location_id,
      locationName: lookup.location_name,
      keyId: lookup.key_id,
    };
  };
}
