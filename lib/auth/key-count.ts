import { LimitExceededError } from '../platform/errors.ts';
import { itemType, stamp } from '../store/item-type.ts';
import { ConditionFailedError, type Table, type UpdateOp, type WriteOp } from '../store/table.ts';
import type { KeyStore } from './key-store.ts';
import { tenantPk } from './tenancy-keys.ts';

/** API keys a tenant may hold at once, over all its members (403 LIMIT_EXCEEDED past it). */
export const API_KEY_LIMIT = 100;

/**
 * The tenant's key counter (`api_key_count`, docs/data-model.md): every transaction that creates
 * keys adds to it under the condition that it stays within API_KEY_LIMIT, every one that deletes
 * keys takes them off, so the limit holds under concurrent creates.
 */
export const KEY_COUNT = itemType('api_key_count');

const keyCountKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'KEYCOUNT' });

/** The counter of a new tenant, which starts with `count` keys. */
export function newKeyCountOp(tenantId: string, count: number): WriteOp {
  return {
    type: 'put',
    item: { ...keyCountKey(tenantId), ...stamp(KEY_COUNT), tenant_id: tenantId, count },
    condition: { kind: 'itemNotExists' },
  };
}

/** Counts one new key; its condition fails when the tenant already holds API_KEY_LIMIT keys. */
export function countKeyOp(tenantId: string): UpdateOp {
  return {
    type: 'update',
    key: keyCountKey(tenantId),
    add: { count: 1 },
    condition: { kind: 'compare', attr: 'count', op: '<', value: API_KEY_LIMIT },
  };
}

/** Takes `n` deleted keys off the counter. */
export function uncountKeysOp(tenantId: string, n: number): UpdateOp {
  return { type: 'update', key: keyCountKey(tenantId), add: { count: -n } };
}

/** The error of a create whose counter op (at `index`) failed its condition. */
export function keyLimitError(error: unknown, index: number): LimitExceededError | undefined {
  if (!(error instanceof ConditionFailedError) || !error.failed.includes(index)) return undefined;
  return new LimitExceededError(`an account holds at most ${API_KEY_LIMIT} API keys; delete one first`);
}

/**
 * Makes sure the tenant's counter exists before keys are created or deleted. Tenants created
 * before the counter existed get one holding their current number of keys; the put is
 * conditional, so of two concurrent first writers one seeds it and the other uses that.
 */
export async function ensureKeyCount(table: Table, keys: Pick<KeyStore, 'list'>, tenantId: string) {
  if (await table.get(keyCountKey(tenantId), { consistent: true })) return;
  const count = (await keys.list(tenantId)).length;
  try {
    await table.transact([newKeyCountOp(tenantId, count)]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
