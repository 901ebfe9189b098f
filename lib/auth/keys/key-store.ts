import { isWellFormedApiKey } from '../../domain/formats.ts';
import { isoTime } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../api-key.ts';
import {
  type ApiKeyRecord,
  apiKeyCreatedOps,
  findKeyByHash,
  getApiKey,
  keyUsedOp,
  listApiKeys,
} from './api-key-items.ts';
import { newKeyCountOp } from './key-count-items.ts';

/**
 * A new tenant's first key, for its admin (label `bootstrap`), with the tenant's key count started
 * at one admin key: the writes lib/auth/tenants.ts hands the tenant store.
 */
export function firstKeyOps(
  input: { tenantId: string; userId: string; raw?: string | undefined },
  nowMs: number,
): { ops: WriteOp[]; raw: string } {
  const key = newKeyOps({ ...input, label: 'bootstrap', readOnly: false }, nowMs);
  return { ops: [...key.ops, newKeyCountOp(input.tenantId, 1, 1)], raw: key.raw };
}

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
  const record: ApiKeyRecord = {
    id: newId('key', nowMs),
    tenant_id: input.tenantId,
    user_id: input.userId,
    label: input.label,
    is_read_only: input.readOnly,
    prefix: keyPrefix(raw),
    key_hash: hashApiKey(raw),
    created_at: isoTime(nowMs),
    last_used_at: null,
  };
  return { record, raw, ops: apiKeyCreatedOps(record) };
}

/** Reads of API keys, and the record of a key's use. */
export function createKeyStore(table: Table) {
  return {
    findByHash: (hash: string) => findKeyByHash(table, hash),
    get: (tenantId: string, keyId: string) => getApiKey(table, tenantId, keyId),
    list: (tenantId: string): Promise<ApiKeyRecord[]> => listApiKeys(table, tenantId),
    async touch(tenantId: string, keyId: string, nowMs: number): Promise<void> {
      await table.update(keyUsedOp(tenantId, keyId, isoTime(nowMs)));
    },
  };
}

export type KeyStore = ReturnType<typeof createKeyStore>;
