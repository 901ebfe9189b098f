/**
 * lib/auth's tenants as the rest of the code base holds them: the tenant store (tenants, their users
 * and plans) and the short-lived cache of a tenant the probing and push paths read on each result.
 */
export { createTenantCache } from './tenants/tenant-cache.ts';
export { createTenantStore, type TenantStarter, type TenantStore } from './tenants/tenant-store.ts';
