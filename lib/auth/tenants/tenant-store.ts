import { isoTime } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { newId, newRecordStamp } from '../../platform/ids.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import {
  DEFAULT_LIMITS,
  getTenant,
  listTenants,
  type PlanLimits,
  type Tenant,
  tenantCreatedOp,
  tenantSettingsOp,
} from './tenant-items.ts';
import { getUser, type User, userCreatedOps } from './user-items.ts';

export interface CreateTenantInput {
  name: string;
  email: string;
  adminName?: string;
  /** Preset first key (VIGIL_BOOTSTRAP_KEY); generated when absent. */
  rawKey?: string;
  limits?: Partial<PlanLimits>;
}

/** Writes made with each new tenant, in its creation's transaction (the app's: the catalog-ops skill). */
export type TenantStarter = (tenantId: string, nowMs: number) => WriteOp[];

/**
 * The writes of a new tenant's first API key (lib/auth/keys), for its admin: `raw` when given, a
 * new key otherwise. Handed in by lib/auth/tenants.ts, so tenants sit below keys.
 */
export type FirstKey = (
  input: { tenantId: string; userId: string; raw?: string | undefined },
  nowMs: number,
) => { ops: WriteOp[]; raw: string };

/** Tenants and users: creation by the operator, reads by the API. */
export function createTenantStoreWith(
  table: Table,
  clock: { now(): number },
  options: { firstKey: FirstKey; starter?: TenantStarter | undefined },
) {
  const requireTenant = async (tenantId: string): Promise<Tenant> => {
    const tenant = await getTenant(table, tenantId);
    if (!tenant) throw new NotFoundError('tenant');
    return tenant;
  };

  return {
    getTenant: (tenantId: string) => getTenant(table, tenantId),
    requireTenant,
    getUser: (tenantId: string, userId: string) => getUser(table, tenantId, userId),

    /** Creates a tenant, its first admin user and that user's first API key, in one transaction. */
    async createTenant(input: CreateTenantInput): Promise<{ tenant: Tenant; user: User; rawKey: string }> {
      const { id, now, at } = newRecordStamp('tnt', clock);
      const tenant: Tenant = {
        id,
        name: input.name,
        email: input.email,
        disabled: false,
        admin_count: 1,
        ...DEFAULT_LIMITS,
        ...input.limits,
        created_at: at,
        updated_at: at,
      };
      const user: User = {
        id: newId('usr', now),
        tenant_id: tenant.id,
        email: input.email,
        name: input.adminName ?? input.name,
        role: 'admin',
        created_at: at,
        updated_at: at,
      };
      const key = options.firstKey({ tenantId: tenant.id, userId: user.id, raw: input.rawKey }, now);
      await table.transact([
        tenantCreatedOp(tenant),
        ...userCreatedOps(user),
        ...key.ops,
        ...(options.starter?.(tenant.id, now) ?? []),
      ]);
      return { tenant, user, rawKey: key.raw };
    },

    listTenants: (): Promise<Tenant[]> => listTenants(table),

    async setLimits(tenantId: string, limits: Partial<PlanLimits>): Promise<Tenant> {
      await requireTenant(tenantId);
      await table.update(tenantSettingsOp(tenantId, { ...limits, updated_at: isoTime(clock.now()) }));
      return requireTenant(tenantId);
    },

    async setDisabled(tenantId: string, disabled: boolean): Promise<Tenant> {
      await requireTenant(tenantId);
      await table.update(tenantSettingsOp(tenantId, { disabled, updated_at: isoTime(clock.now()) }));
      return requireTenant(tenantId);
    },
  };
}

export type TenantStore = ReturnType<typeof createTenantStoreWith>;
