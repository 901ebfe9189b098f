/**
 * lib/auth's tenants as the rest of the code base holds them: the tenant store (tenants, their users
 * and plans) and the short-lived cache of a tenant the probing and push paths read on each result.
 */
export { createTenantCache } from './tenants/tenant-cache.ts';

import type { Table } from '../store/table.ts';
import { firstKeyOps } from './keys/key-store.ts';
import { createTenantStoreWith, type TenantStarter, type TenantStore } from './tenants/tenant-store.ts';

export type { TenantStarter, TenantStore } from './tenants/tenant-store.ts';

/** The tenant store, a new tenant's first key made by lib/auth/keys. */
export function createTenantStore(
  table: Table,
  clock: { now(): number },
  options: { starter?: TenantStarter | undefined } = {},
): TenantStore {
  return createTenantStoreWith(table, clock, { ...options, firstKey: firstKeyOps });
}
