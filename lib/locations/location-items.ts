import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { tenantItemKeys, tenantPk } from '../store/partitions.ts';
import type { Table, UpdateOp, WriteOp } from '../store/table.ts';

/**
 * A tenant's probe locations (`location`) and the uniqueness item of each one's name
 * (`location_name`), always written and deleted together (docs/data-model.md "Locations"). The
 * runtime's own `default` location is not stored: it always exists.
 */

export const LOCATION_KINDS = ['agent', 'aws_region'] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];

const locationSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  kind: z.enum(LOCATION_KINDS),
  created_at: z.string(),
  /** The last heartbeat written (at most every HEARTBEAT_WRITE_MS per process), null before the first. */
  last_seen_at: z.string().nullable(),
  /** The version the agent reported in its last written heartbeat. */
  version: z.string().nullable(),
  /** How many keys the location has: bounded, so its deletion takes them all in one transaction. */
  key_count: z.number().int(),
});
export type LocationRecord = z.infer<typeof locationSchema>;

const LOCATION_PREFIX = 'LOC#';

const location = defineItem({
  type: itemType('location'),
  schema: locationSchema,
  ...tenantItemKeys(LOCATION_PREFIX, '<loc>'),
});

const locationName = defineItem({
  type: itemType('location_name'),
  schema: z.object({ location_id: z.string() }),
  key: (k: { tenant_id: string; name: string }) => ({ pk: tenantPk(k.tenant_id), sk: `LOCNAME#${k.name}` }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', name: '<name>' },
});

/** The tenant's location, or undefined (consistent). */
export function getLocation(table: Table, tenantId: string, id: string): Promise<LocationRecord | undefined> {
  return location.get(table, { tenant_id: tenantId, id }, { consistent: true });
}

/** Every stored location of the tenant, by id (so oldest first; consistent). */
export async function listLocations(table: Table, tenantId: string): Promise<LocationRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: LOCATION_PREFIX },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => location.parse(item));
}

/** The puts of a new location and its name item, each failing if already there (op 1: the name is taken). */
export function locationCreatedOps(record: LocationRecord): WriteOp[] {
  return [
    location.put(record, { kind: 'itemNotExists' }),
    locationName.putAt(
      { tenant_id: record.tenant_id, name: record.name },
      { location_id: record.id },
      { kind: 'itemNotExists' },
    ),
  ];
}

/**
 * The deletes of a location and its name item; the location must still hold exactly the keys
 * the caller found (`keys`), so a key added meanwhile is not left behind.
 */
export function locationDeletedOps(record: LocationRecord, keys: number): WriteOp[] {
  return [
    location.delete(record, {
      kind: 'and',
      conditions: [{ kind: 'itemExists' }, { kind: 'compare', attr: 'key_count', op: '=', value: keys }],
    }),
    locationName.delete({ tenant_id: record.tenant_id, name: record.name }),
  ];
}

/** Counts one more key of the location, while it exists and has fewer than `max`. */
export function locationKeyCountedOp(tenantId: string, id: string, max: number): UpdateOp {
  return location.update(
    { tenant_id: tenantId, id },
    {
      add: { key_count: 1 },
      condition: {
        kind: 'and',
        conditions: [{ kind: 'itemExists' }, { kind: 'compare', attr: 'key_count', op: '<', value: max }],
      },
    },
  );
}

/** Counts one key of the location less, while it exists. */
export function locationKeyUncountedOp(tenantId: string, id: string): UpdateOp {
  return location.update(
    { tenant_id: tenantId, id },
    { add: { key_count: -1 }, condition: { kind: 'itemExists' } },
  );
}

/** Records a heartbeat: when the location was seen and the version it runs, while it exists. */
export function locationSeenOp(tenantId: string, id: string, at: string, version?: string | null): UpdateOp {
  // No version (a lease): the one the last heartbeat wrote stays.
  const set = version === undefined ? { last_seen_at: at } : { last_seen_at: at, version };
  return location.update({ tenant_id: tenantId, id }, { set, condition: { kind: 'itemExists' } });
}
