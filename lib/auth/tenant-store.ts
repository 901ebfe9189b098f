import { isoTime } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import type { Table } from '../store/table.ts';
import { newKeyCountOp } from './key-count.ts';
import { newKeyOps } from './key-store.ts';
import {
  DEFAULT_LIMITS,
  type PlanLimits,
  type Tenant,
  tenantSchema,
  type User,
  userSchema,
} from './records.ts';
import { TENANTS_INDEX_PK, tenancyKeys, tenancyTypes } from './tenancy-keys.ts';

export interface CreateTenantInput {
  name: string;
  email: string;
  adminName?: string;
  /** Preset first key (VIGIL_BOOTSTRAP_KEY); generated when absent. */
  rawKey?: string;
  limits?: Partial<PlanLimits>;
}

/** Tenants and users: creation by the operator, reads by the API. */
export function createTenantStore(table: Table, clock: { now(): number }) {
  const getTenant = async (tenantId: string): Promise<Tenant | undefined> => {
    const item = await table.get(tenancyKeys.tenant(tenantId), { consistent: true });
    return item ? parseItem(tenantSchema, item) : undefined;
  };

  const requireTenant = async (tenantId: string): Promise<Tenant> => {
    const tenant = await getTenant(tenantId);
    if (!tenant) throw new NotFoundError('tenant');
    return tenant;
  };

  return {
    getTenant,
    requireTenant,

    async getUser(tenantId: string, userId: string): Promise<User | undefined> {
      const item = await table.get(tenancyKeys.user(tenantId, userId), { consistent: true });
      return item ? parseItem(userSchema, item) : undefined;
    },

    /** Creates a tenant, its first admin user and that user's first API key, in one transaction. */
    async createTenant(input: CreateTenantInput): Promise<{ tenant: Tenant; user: User; rawKey: string }> {
      const now = clock.now();
      const at = isoTime(now);
      const tenant: Tenant = {
        id: newId('tnt', now),
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
      const key = newKeyOps(
        { tenantId: tenant.id, userId: user.id, label: 'bootstrap', readOnly: false, raw: input.rawKey },
        now,
      );
      await table.transact([
        {
          type: 'put',
          item: {
            ...tenancyKeys.tenant(tenant.id),
            ...stamp(tenancyTypes.tenant),
            gsi1pk: TENANTS_INDEX_PK,
            gsi1sk: tenant.id,
            ...tenant,
          },
          condition: { kind: 'itemNotExists' },
        },
        {
          type: 'put',
          item: { ...tenancyKeys.user(tenant.id, user.id), ...stamp(tenancyTypes.user), ...user },
        },
        {
          type: 'put',
          item: {
            ...tenancyKeys.userEmail(tenant.id, user.email),
            ...stamp(tenancyTypes.userEmail),
            user_id: user.id,
          },
        },
        ...key.ops,
        newKeyCountOp(tenant.id, 1, 1),
      ]);
      return { tenant, user, rawKey: key.raw };
    },

    async listTenants(): Promise<Tenant[]> {
      const items = await queryAll((cursor) => table.query({ index: 'gsi1', pk: TENANTS_INDEX_PK, cursor }));
      return items.map((item) => parseItem(tenantSchema, item));
    },

    async setLimits(tenantId: string, limits: Partial<PlanLimits>): Promise<Tenant> {
      await requireTenant(tenantId);
      await table.update({
        type: 'update',
        key: tenancyKeys.tenant(tenantId),
        set: { ...limits, updated_at: isoTime(clock.now()) },
        condition: { kind: 'itemExists' },
      });
      return requireTenant(tenantId);
    },

    async setDisabled(tenantId: string, disabled: boolean): Promise<Tenant> {
      await requireTenant(tenantId);
      await table.update({
        type: 'update',
        key: tenancyKeys.tenant(tenantId),
        set: { disabled, updated_at: isoTime(clock.now()) },
        condition: { kind: 'itemExists' },
      });
      return requireTenant(tenantId);
    },
  };
}

export type TenantStore = ReturnType<typeof createTenantStore>;
