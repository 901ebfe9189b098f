import * as z from 'zod';
import { belowLimit } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantItemKeys, tenantPk } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of `notify_route` and `notify_route_count`: the tenant's alert routes (DECISIONS.md
 * "Operations features (wave 3)"), items in the tenant partition read whole by every alert of the
 * tenant (so their number is bounded), and the counter that holds that bound under concurrent creates.
 */

/** Routes one tenant may have: each alert reads them all. */
export const MAX_ROUTES = 50;

/** What a route's alerts are grouped by: each entity alone (default), its blueprint, or the whole tenant. */
export const GROUP_BYS = ['entity', 'blueprint', 'tenant'] as const;
export type GroupBy = (typeof GROUP_BYS)[number];
export const GROUP_DEFAULTS = {
  group_by: 'entity',
  group_wait_seconds: 0,
  group_interval_seconds: 300,
} as const;

const routeMatchSchema = z.object({
  blueprint_slugs: z.array(z.string()),
  entity_ids: z.array(z.string()),
  to_states: z.array(z.string()),
});
export type RouteMatch = z.infer<typeof routeMatchSchema>;

const routeSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  /** Unique in the tenant when set; routes created without one (or before names) have none. */
  name: z.string().optional(),
  /** Empty lists match anything: a route without criteria takes every alert of the tenant. */
  match: routeMatchSchema,
  channel_ids: z.array(z.string()),
  escalate_after_seconds: z.number().int().nullable(),
  escalate_channel_ids: z.array(z.string()),
  /** The escalation policy the matching incidents climb (DECISIONS.md "On-call (wave 5)"); routes stored before it have none. */
  escalation_policy_id: z.string().nullable().default(null),
  /** The matching incidents climb the policy of the team owning the entity (issue 55 item 5). */
  page_owner_policy: z.boolean().default(false),
  /** Grouping (DECISIONS.md "Alert model (wave 4)"); routes stored before it parse with the defaults. */
  group_by: z.enum(GROUP_BYS).default('entity'),
  group_wait_seconds: z.number().int().default(0),
  group_interval_seconds: z.number().int().default(300),
  created_at: z.string(),
});
export type RouteRecord = z.output<typeof routeSchema>;

const ROUTE_PREFIX = 'NROUTE#';

const route = defineItem({
  type: itemType('notify_route'),
  schema: routeSchema,
  ...tenantItemKeys(ROUTE_PREFIX, '<rte_id>'),
});

const routeCount = defineItem({
  type: itemType('notify_route_count'),
  schema: z.object({ count: z.number().int() }),
  key: (k: { tenant_id: string }) => ({ pk: tenantPk(k.tenant_id), sk: 'NOTIFY#ROUTES' }),
  keyOf: (_r, c: { tenant_id: string }) => c,
  docKey: { tenant_id: '<tnt>' },
});

/** Every route of the tenant, oldest first (consistent; at most MAX_ROUTES). */
export async function listRoutes(table: Table, tenantId: string): Promise<RouteRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: ROUTE_PREFIX },
      consistent: true,
      cursor,
    }),
  );
  return route.parseAll(items);
}

/** The writes that create a route: the counter (below MAX_ROUTES), then the route (`itemNotExists`). */
export function routeCreatedOps(record: RouteRecord): WriteOp[] {
  return [
    routeCount.upsert(
      { tenant_id: record.tenant_id },
      { add: { count: 1 }, condition: belowLimit('count', MAX_ROUTES) },
    ),
    route.put(record, { kind: 'itemNotExists' }),
  ];
}

/** The put that replaces a stored route (never creates one): a deleted channel's id taken out. */
export function routeChangedOp(record: RouteRecord): WriteOp {
  return route.put(record, { kind: 'itemExists' });
}

/** The writes that delete a route (`itemExists`: first op) and count it out. */
export function routeDeletedOps(tenantId: string, id: string): WriteOp[] {
  return [
    route.delete({ tenant_id: tenantId, id }, { kind: 'itemExists' }),
    routeCount.upsert({ tenant_id: tenantId }, { add: { count: -1 } }),
  ];
}
