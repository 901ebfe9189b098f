import { isWellFormedApiKey } from '../domain/api-key-format.ts';
import { isoTime } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';
import { generateApiKey, hashApiKey, keyPrefix } from './api-key.ts';
import { type ApiKeyRecord, apiKeySchema, keyHashSchema } from './records.ts';
import { tenancyKeys, tenancyTypes } from './tenancy-keys.ts';

export interface NewKey {
  record: ApiKeyRecord;
  raw: string;
  ops: WriteOp[];
}

/** The write operations that create a key (listing item + hash lookup item); the raw key is returned once. */
export function newKeyOps(
  input: { tenantId: string; userId: string; label: string; readOnly: boolean; raw?: string },
  nowMs: number,
): NewKey {
  const raw = input.raw ?? generateApiKey();
  if (!isWellFormedApiKey(raw)) throw new Error('API key is not in the vgl_ format');
  const hash = hashApiKey(raw);
  const record: ApiKeyRecord = {
    id: newId('key', nowMs),
    tenant_id: input.tenantId,
    user_id: input.userId,
    label: input.label,
    is_read_only: input.readOnly,
    prefix: keyPrefix(raw),
    key_hash: hash,
    created_at: isoTime(nowMs),
    last_used_at: null,
  };
  const ops: WriteOp[] = [
    {
      type: 'put',
      item: { ...tenancyKeys.apiKey(input.tenantId, record.id), ...stamp(tenancyTypes.apiKey), ...record },
      condition: { kind: 'itemNotExists' },
    },
    {
      type: 'put',
      item: {
        ...tenancyKeys.keyHash(hash),
        ...stamp(tenancyTypes.keyHash),
        key_hash: hash,
        tenant_id: input.tenantId,
        user_id: input.userId,
        key_id: record.id,
        is_read_only: input.readOnly,
      },
      condition: { kind: 'itemNotExists' },
    },
  ];
  return { record, raw, ops };
}

/**
 * The op that goes with every key created for an existing user: the user must still be there (a
 * removed member gets no key), and its `key_serial` changes, so a removal that counted the user's
 * keys before fails its condition (lib/auth/team-remove.ts).
 */
export function keyOwnerOp(tenantId: string, userId: string): WriteOp {
  return {
    type: 'update',
    key: tenancyKeys.user(tenantId, userId),
    add: { key_serial: 1 },
    condition: { kind: 'itemExists' },
  };
}

/**
 * The write operations that delete a key and its lookup item; the key must still be there, so a
 * key deleted twice at once is taken off the tenant's key counter once (lib/auth/key-count.ts).
 */
export function deleteKeyOps(key: ApiKeyRecord): WriteOp[] {
  return [
    { type: 'delete', key: tenancyKeys.apiKey(key.tenant_id, key.id), condition: { kind: 'itemExists' } },
    { type: 'delete', key: tenancyKeys.keyHash(key.key_hash) },
  ];
}

/** Reads of API keys. */
export function createKeyStore(table: Table) {
  return {
    async findByHash(hash: string) {
      const item = await table.get(tenancyKeys.keyHash(hash), { consistent: true });
      return item ? parseItem(keyHashSchema, item) : undefined;
    },
    async get(tenantId: string, keyId: string) {
      const item = await table.get(tenancyKeys.apiKey(tenantId, keyId), { consistent: true });
      return item ? parseItem(apiKeySchema, item) : undefined;
    },
    async list(tenantId: string): Promise<ApiKeyRecord[]> {
      const items = await queryAll((cursor) =>
        table.query({
          pk: tenantPk(tenantId),
          sk: { op: 'beginsWith', prefix: 'KEY#' },
          cursor,
          consistent: true,
        }),
      );
      return items.map((item) => parseItem(apiKeySchema, item));
    },
    async touch(tenantId: string, keyId: string, nowMs: number): Promise<void> {
      await table.update({
        key: tenancyKeys.apiKey(tenantId, keyId),
        type: 'update',
        set: { last_used_at: isoTime(nowMs) },
        condition: { kind: 'itemExists' },
      });
    },
  };
}

export type KeyStore = ReturnType<typeof createKeyStore>;
