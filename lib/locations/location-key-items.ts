import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Location keys (`location_key`, listed under the tenant by location) and their hash lookup items
 * (`location_key_hash`, the only way from a presented `vlk_` key to its location, in one read),
 * always created and deleted together. Only the SHA-256 hash of a key is stored.
 */

const locationKeySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  location_id: z.string(),
  prefix: z.string(),
  key_hash: z.string(),
  created_at: z.string(),
});
export type LocationKeyRecord = z.infer<typeof locationKeySchema>;

const locationKeyHashSchema = z.object({
  key_hash: z.string(),
  tenant_id: z.string(),
  location_id: z.string(),
  /** Copied from the location (names never change), so authentication needs this one read. */
  location_name: z.string(),
  key_id: z.string(),
});
export type LocationKeyHashRecord = z.infer<typeof locationKeyHashSchema>;

const KEY_PREFIX = 'LOCKEY#';

const locationKey = defineItem({
  type: itemType('location_key'),
  schema: locationKeySchema,
  key: (k: { tenant_id: string; location_id: string; id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${KEY_PREFIX}${k.location_id}#${k.id}`,
  }),
  docKey: { tenant_id: '<tnt>', location_id: '<loc>', id: '<lky>' },
});

const locationKeyHash = defineItem({
  type: itemType('location_key_hash'),
  schema: locationKeyHashSchema,
  key: (k: { key_hash: string }) => ({ pk: `LOCKEYHASH#${k.key_hash}`, sk: '#LOCKEYHASH' }),
  docKey: { key_hash: '<sha256>' },
});

/** The lookup item of a location key's hash, or undefined (consistent: a revoked key is gone at once). */
export function findLocationKeyByHash(
  table: Table,
  hash: string,
): Promise<LocationKeyHashRecord | undefined> {
  return locationKeyHash.get(table, { key_hash: hash }, { consistent: true });
}

/** The location's key, or undefined (consistent). */
export function getLocationKey(
  table: Table,
  tenantId: string,
  locationId: string,
  keyId: string,
): Promise<LocationKeyRecord | undefined> {
  return locationKey.get(
    table,
    { tenant_id: tenantId, location_id: locationId, id: keyId },
    { consistent: true },
  );
}

/** Every key of the location, by id (consistent). */
export async function listLocationKeys(
  table: Table,
  tenantId: string,
  locationId: string,
): Promise<LocationKeyRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: `${KEY_PREFIX}${locationId}#` },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => locationKey.parse(item));
}

/** The puts of a new key and its hash lookup item (each fails if already there). */
export function locationKeyCreatedOps(record: LocationKeyRecord, locationName: string): WriteOp[] {
  return [
    locationKey.put(record, { kind: 'itemNotExists' }),
    locationKeyHash.put(
      {
        key_hash: record.key_hash,
        tenant_id: record.tenant_id,
        location_id: record.location_id,
        location_name: locationName,
        key_id: record.id,
      },
      { kind: 'itemNotExists' },
    ),
  ];
}

/** The deletes of a key and its lookup item; the key must still be there (so it is uncounted once). */
export function locationKeyDeletedOps(record: LocationKeyRecord): WriteOp[] {
  return [locationKey.delete(record, { kind: 'itemExists' }), locationKeyHash.delete(record)];
}
