import type { Clock } from '../../platform/clock.ts';
import type { Tenant } from './tenant-items.ts';
import type { TenantStore } from './tenant-store.ts';

/** How long a cached tenant is used: a change of its settings (retention) applies within this. */
const TENANT_CACHE_MS = 5000;

/**
 * The tenant as read at most once per `ttlMs` per tenant and process, for hot paths that only need
 * slow-changing settings (the retention of each result written). Not for authorization, which
 * has its own rule (AUTH_CACHE_MS in authenticate.ts).
 */
export function createTenantCache(deps: { tenants: Pick<TenantStore, 'requireTenant'>; clock: Clock }) {
  const entries = new Map<string, { tenant: Tenant; readAtMs: number }>();
  return {
    async requireTenant(tenantId: string, ttlMs = TENANT_CACHE_MS): Promise<Tenant> {
      const now = deps.clock.now();
      const hit = entries.get(tenantId);
      if (hit && now >= hit.readAtMs && now - hit.readAtMs < ttlMs) return hit.tenant;
      const tenant = await deps.tenants.requireTenant(tenantId);
      if (entries.size >= 10_000) entries.clear();
      entries.set(tenantId, { tenant, readAtMs: now });
      return tenant;
    },
  };
}
