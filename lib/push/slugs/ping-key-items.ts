import * as z from 'zod';
import { isoTime } from '../../platform/clock.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Condition, Table, WriteOp } from '../../store/table.ts';

/**
 * The owner of a tenant's ping key (the `<ping key>` of slug ping URLs, `/ping/<ping key>/<slug>`):
 * the key item in the tenant's partition (what GET /v1/settings/ping-key shows) and its hash
 * lookup item in a partition of its own (`PINGKEYHASH#<sha256>`), the only way from a presented
 * key to its tenant: one consistent read, as for API keys. Only the SHA-256 of the key is stored;
 * both items are written together, and a rotation deletes the old lookup item in the same
 * transaction, so an old key stops working the moment the new one exists.
 */

const pingKeySchema = z.object({
  tenant_id: z.string(),
  key_hash: z.string(),
  prefix: z.string(),
  created_at: z.string(),
});
export type PingKeyRecord = z.infer<typeof pingKeySchema>;

const pingKeyHashSchema = z.object({ key_hash: z.string(), tenant_id: z.string() });
export type PingKeyHashRecord = z.infer<typeof pingKeyHashSchema>;

const pingKey = defineItem({
  type: itemType('ping_key'),
  schema: pingKeySchema,
  key: (k: { tenant_id: string }) => ({ pk: tenantPk(k.tenant_id), sk: 'PINGKEY' }),
  docKey: { tenant_id: '<tnt>' },
});

const pingKeyHash = defineItem({
  type: itemType('ping_key_hash'),
  schema: pingKeyHashSchema,
  key: (k: { key_hash: string }) => ({ pk: `PINGKEYHASH#${k.key_hash}`, sk: '#PINGKEYHASH' }),
  docKey: { key_hash: '<sha256>' },
});

/** The tenant's ping key item (never the key itself), or undefined (consistent). */
export function getPingKey(table: Table, tenantId: string): Promise<PingKeyRecord | undefined> {
  return pingKey.get(table, { tenant_id: tenantId }, { consistent: true });
}

/** The lookup item of a presented key's hash, or undefined (consistent). */
export function findPingKeyByHash(table: Table, hash: string): Promise<PingKeyHashRecord | undefined> {
  return pingKeyHash.get(table, { key_hash: hash }, { consistent: true });
}

/**
 * The writes that make `hash` the tenant's ping key, replacing `current` (read just before):
 * the key item only while it is still `current` (a concurrent rotation makes one of the two fail),
 * the old lookup item deleted, the new one put.
 */
export function pingKeySetOps(
  input: { tenantId: string; hash: string; prefix: string; nowMs: number },
  current: PingKeyRecord | undefined,
): { record: PingKeyRecord; ops: WriteOp[] } {
  const record: PingKeyRecord = {
    tenant_id: input.tenantId,
    key_hash: input.hash,
    prefix: input.prefix,
    created_at: isoTime(input.nowMs),
  };
  const stillCurrent: Condition = current
    ? { kind: 'compare', attr: 'key_hash', op: '=', value: current.key_hash }
    : { kind: 'itemNotExists' };
  const ops: WriteOp[] = [
    pingKey.put(record, stillCurrent),
    pingKeyHash.put({ key_hash: input.hash, tenant_id: input.tenantId }, { kind: 'itemNotExists' }),
  ];
  if (current) ops.push(pingKeyHash.delete({ key_hash: current.key_hash }));
  return { record, ops };
}
