import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantItemKeys, tenantPk } from '../../store/partitions.ts';
import type { Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * API keys (`api_key`, listed under the tenant) and their hash lookup items (`api_key_hash`, the
 * only way from a presented key to its tenant), always created and deleted together. Only the
 * SHA-256 hash of a key is stored.
 */

export const apiKeySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  label: z.string(),
  is_read_only: z.boolean(),
  prefix: z.string(),
  key_hash: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKeyRecord = z.infer<typeof apiKeySchema>;

const keyHashSchema = z.object({
  key_hash: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  key_id: z.string(),
  is_read_only: z.boolean(),
});
export type KeyHashRecord = z.infer<typeof keyHashSchema>;

const KEY_PREFIX = 'KEY#';

const apiKey = defineItem({
  type: itemType('api_key'),
  schema: apiKeySchema,
  ...tenantItemKeys(KEY_PREFIX, '<key>'),
});

const keyHash = defineItem({
  type: itemType('api_key_hash'),
  schema: keyHashSchema,
  key: (k: { key_hash: string }) => ({ pk: `KEYHASH#${k.key_hash}`, sk: '#KEYHASH' }),
  docKey: { key_hash: '<sha256>' },
});

/** The lookup item of a key's hash, or undefined (consistent). */
export function findKeyByHash(table: Table, hash: string): Promise<KeyHashRecord | undefined> {
  return keyHash.get(table, { key_hash: hash }, { consistent: true });
}

/** The tenant's key, or undefined (consistent). */
export function getApiKey(table: Table, tenantId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
  return apiKey.get(table, { tenant_id: tenantId, id: keyId }, { consistent: true });
}

/** Every key of the tenant, by id (consistent). */
export async function listApiKeys(table: Table, tenantId: string): Promise<ApiKeyRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: KEY_PREFIX },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => apiKey.parse(item));
}

/** The puts of a new key and its hash lookup item (each fails if already there). */
export function apiKeyCreatedOps(record: ApiKeyRecord): WriteOp[] {
  return [
    apiKey.put(record, { kind: 'itemNotExists' }),
    keyHash.put(
      {
        key_hash: record.key_hash,
        tenant_id: record.tenant_id,
        user_id: record.user_id,
        key_id: record.id,
        is_read_only: record.is_read_only,
      },
      { kind: 'itemNotExists' },
    ),
  ];
}

/**
 * The deletes of a key and its lookup item; the key must still be there, so a key deleted twice
 * at once is taken off the tenant's key counter once (lib/auth/keys/key-count.ts).
 */
export function apiKeyDeletedOps(record: ApiKeyRecord): WriteOp[] {
  return [apiKey.delete(record, { kind: 'itemExists' }), keyHash.delete(record)];
}

/** Records a key's use (`last_used_at`), while the key exists. */
export function keyUsedOp(tenantId: string, keyId: string, at: string): UpdateOp {
  return apiKey.update(
    { tenant_id: tenantId, id: keyId },
    { set: { last_used_at: at }, condition: { kind: 'itemExists' } },
  );
}
