import * as z from 'zod';
import type { Role } from '../../domain/principal.ts';
import { defineItem, type ItemChange } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Condition, Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * The tenant item (`tenant`, docs/data-model.md "Tenancy and keys"): the account, its plan limits,
 * `disabled`, `admin_count`, and the catalog's counters, which the catalog writes in its own
 * transactions through `tenantCatalogOp`.
 */

export const DEFAULT_LIMITS = {
  blueprint_limit: 50,
  entity_limit_per_bp: 1000,
  check_limit_per_entity: 20,
  retention_days: 30,
  /** Emails (one per recipient) the tenant's channels may send per UTC day (issue 36: no relay). */
  email_daily_limit: 200,
} as const;

export const limitsSchema = z.object({
  blueprint_limit: z.number().int().min(0),
  entity_limit_per_bp: z.number().int().min(0),
  check_limit_per_entity: z.number().int().min(0),
  retention_days: z.number().int().min(1),
  // Absent on tenants created before it existed: DEFAULT_LIMITS' value applies.
  email_daily_limit: z.number().int().min(0).optional(),
});
export type PlanLimits = z.infer<typeof limitsSchema>;

/** The account as the API and the operator see it (the catalog's counters left out). */
export const tenantSchema = limitsSchema.extend({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  disabled: z.boolean(),
  admin_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** The catalog's counters on the tenant item (kept by lib/catalog, absent until first written). */
const catalogCountersSchema = z.object({
  blueprint_count: z.number().int().optional(),
  default_blueprint: z.string().optional(),
  relation_graph_version: z.number().int().optional(),
});
type CatalogCounters = z.infer<typeof catalogCountersSchema>;

/** What the catalog reads of the tenant item: the limits it enforces and its counters. */
const tenantCatalogSchema = z.object({
  blueprint_limit: z.number().int(),
  entity_limit_per_bp: z.number().int(),
  ...catalogCountersSchema.shape,
});
export type TenantCatalog = z.infer<typeof tenantCatalogSchema>;

const TENANTS_INDEX_PK = 'TENANTS';

const tenant = defineItem({
  type: itemType('tenant'),
  schema: tenantSchema.extend(catalogCountersSchema.shape),
  key: (k: { id: string }) => ({ pk: tenantPk(k.id), sk: '#TENANT' }),
  gsi1: (r) => ({ pk: TENANTS_INDEX_PK, sk: r.id }),
  docKey: { id: '<tnt>' },
});

/** The tenant, or undefined (consistent). */
export async function getTenant(table: Table, tenantId: string): Promise<Tenant | undefined> {
  const item = await table.get(tenant.key({ id: tenantId }), { consistent: true });
  return item ? tenantSchema.parse(item) : undefined;
}

/** The catalog's view of the tenant item, or undefined (consistent). */
export async function getTenantCatalog(table: Table, tenantId: string): Promise<TenantCatalog | undefined> {
  const item = await table.get(tenant.key({ id: tenantId }), { consistent: true });
  return item ? tenantCatalogSchema.parse(item) : undefined;
}

/** Every tenant, through the TENANTS index (operator). */
export async function listTenants(table: Table): Promise<Tenant[]> {
  const items = await queryAll((cursor) => table.query({ index: 'gsi1', pk: TENANTS_INDEX_PK, cursor }));
  return items.map((item) => tenantSchema.parse(item));
}

/** The put of a new tenant (fails if the id is taken). */
export function tenantCreatedOp(record: Tenant): WriteOp {
  return tenant.put(record, { kind: 'itemNotExists' });
}

/** The operator's change of a tenant's limits or `disabled` (the tenant must exist). */
export function tenantSettingsOp(
  tenantId: string,
  set: Partial<PlanLimits> & { disabled?: boolean; updated_at: string },
): UpdateOp {
  return tenant.update({ id: tenantId }, { set, condition: { kind: 'itemExists' } });
}

/** Holds while the tenant exists and is enabled (a member joining it). */
const tenantEnabled: Condition = {
  kind: 'and',
  conditions: [{ kind: 'itemExists' }, { kind: 'compare', attr: 'disabled', op: '=', value: false }],
};

/**
 * A member joins the tenant: an admin adds to `admin_count`, a member only checks the tenant; in
 * both cases the condition is that the tenant exists and is enabled.
 */
export function memberJoinedOp(tenantId: string, role: Role): WriteOp {
  return role === 'admin'
    ? tenant.update({ id: tenantId }, { add: { admin_count: 1 }, condition: tenantEnabled })
    : tenant.conditionCheck({ id: tenantId }, tenantEnabled);
}

/** An admin leaves: `admin_count - 1`, conditional on another admin remaining. */
export function adminLeftOp(tenantId: string): UpdateOp {
  return tenant.update(
    { id: tenantId },
    { add: { admin_count: -1 }, condition: { kind: 'compare', attr: 'admin_count', op: '>', value: 1 } },
  );
}

/**
 * A change of the catalog's counters on the tenant item (blueprint count, default blueprint,
 * relation graph version), with the catalog's condition, inside the catalog's transactions.
 */
export function tenantCatalogOp(
  tenantId: string,
  change: Omit<ItemChange<CatalogCounters>, 'reindex'>,
): UpdateOp {
  return tenant.update({ id: tenantId }, change);
}
