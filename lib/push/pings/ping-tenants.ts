import { AUTH_CACHE_MS } from '../../auth/authenticate.ts';
import type { Tenant } from '../../auth/records.ts';
import type { TenantStore } from '../../auth/tenants.ts';
import type { Clock } from '../../platform/clock.ts';

/**
 * The tenant a ping is for, as the ping routes read it: an enabled tenant is reused for
 * AUTH_CACHE_MS per process, as API keys and location keys reuse theirs (a tenant disabled by the
 * operator is refused within it; its retention applies within it, as the result recorder's does).
 * A ping reads no tenant item then (docs/performance.md "Cost of a ping"); the token is still
 * looked up on every ping, so a revoked token is refused at once.
 */
export function createPingTenants(deps: { tenants: Pick<TenantStore, 'getTenant'>; clock: Clock }) {
  const enabled = new Map<string, { tenant: Tenant; readAtMs: number }>();
  return async (tenantId: string): Promise<Tenant | undefined> => {
    const now = deps.clock.now();
    const hit = enabled.get(tenantId);
    if (hit && now >= hit.readAtMs && now - hit.readAtMs < AUTH_CACHE_MS) return hit.tenant;
    const tenant = await deps.tenants.getTenant(tenantId);
    if (!tenant || tenant.disabled) {
      enabled.delete(tenantId);
      return tenant;
    }
    if (enabled.size >= 10_000) enabled.clear();
    enabled.set(tenantId, { tenant, readAtMs: now });
    return tenant;
  };
}
