import { ConflictError, LimitExceededError } from '../platform/errors.ts';
import { itemType, stamp } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';
import { ConditionFailedError, type Table, type UpdateOp, type WriteOp } from '../store/table.ts';
import type { KeyStore } from './key-store.ts';
import type { Role } from './principal.ts';
import type { ApiKeyRecord } from './records.ts';
import type { TeamStore } from './team-store.ts';

/** API keys a tenant may hold at once, over all its members (403 LIMIT_EXCEEDED past it). */
export const API_KEY_LIMIT = 100;

/**
 * The tenant's key counter (`api_key_count`, docs/data-model.md). `count`: every transaction that
 * creates keys adds to it under the condition that it stays within API_KEY_LIMIT, every one that
 * deletes keys takes them off, so the limit holds under concurrent creates. `admin_key_count`: the
 * same for admin keys (isAdminKey), and every deletion of admin keys is conditional on one staying,
 * so two concurrent revokes of the last two cannot both succeed.
 */
export const KEY_COUNT = itemType('api_key_count');

const keyCountKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'KEYCOUNT' });

/**
 * An admin key: a read-write key of an existing admin user. Only such a key can manage keys and
 * the team (read-only keys get 403 READ_ONLY there, members' keys 403 FORBIDDEN or only their own
 * keys), so a tenant without one is locked out of its own administration.
 */
export function isAdminKey(key: Pick<ApiKeyRecord, 'is_read_only'>, ownerRole: Role | undefined): boolean {
  return !key.is_read_only && ownerRole === 'admin';
}

/** The counter of a new tenant, which starts with `count` keys, `adminKeys` of them admin keys. */
export function newKeyCountOp(tenantId: string, count: number, adminKeys: number): WriteOp {
  return {
    type: 'put',
    item: {
      ...keyCountKey(tenantId),
      ...stamp(KEY_COUNT),
      tenant_id: tenantId,
      count,
      admin_key_count: adminKeys,
    },
    condition: { kind: 'itemNotExists' },
  };
}

/** Counts one new key; its condition fails when the tenant already holds API_KEY_LIMIT keys. */
export function countKeyOp(tenantId: string, adminKey: boolean): UpdateOp {
  return {
    type: 'update',
    key: keyCountKey(tenantId),
    add: adminKey ? { count: 1, admin_key_count: 1 } : { count: 1 },
    condition: { kind: 'compare', attr: 'count', op: '<', value: API_KEY_LIMIT },
  };
}

/**
 * Takes `n` deleted keys off the counter, `adminKeys` of them off the admin keys. With admin keys
 * its condition fails unless more than `adminKeysLeaving` (default `adminKeys`) admin keys are
 * counted, so at least one stays.
 */
export function uncountKeysOp(
  tenantId: string,
  n: number,
  adminKeys = 0,
  adminKeysLeaving = adminKeys,
): UpdateOp {
  const op: UpdateOp = {
    type: 'update',
    key: keyCountKey(tenantId),
    add: adminKeys > 0 ? { count: -n, admin_key_count: -adminKeys } : { count: -n },
  };
  if (adminKeysLeaving === 0) return op;
  return { ...op, condition: { kind: 'compare', attr: 'admin_key_count', op: '>', value: adminKeysLeaving } };
}

/** The error of a create whose counter op (at `index`) failed its condition. */
export function keyLimitError(error: unknown, index: number): LimitExceededError | undefined {
  if (!(error instanceof ConditionFailedError) || !error.failed.includes(index)) return undefined;
  return new LimitExceededError(`an account holds at most ${API_KEY_LIMIT} API keys; delete one first`);
}

/** The error of a deletion whose counter op (at `index`) failed: it would remove the last admin key. */
export function lastAdminKeyError(error: unknown, index: number, message: string): ConflictError | undefined {
  if (!(error instanceof ConditionFailedError) || !error.failed.includes(index)) return undefined;
  return new ConflictError(message);
}

export interface KeyCountDeps {
  table: Table;
  keys: Pick<KeyStore, 'list'>;
  team: Pick<TeamStore, 'listUsers'>;
}

/** The number of admin keys among `keys`, by their owners' roles. */
export function countAdminKeys(keys: ApiKeyRecord[], roles: ReadonlyMap<string, Role>): number {
  return keys.filter((key) => isAdminKey(key, roles.get(key.user_id))).length;
}

/**
 * Makes sure the tenant's counter, with its admin key count, exists before keys are created or
 * deleted: counted on first use, not migrated. Tenants created before the counter get one holding
 * their current keys; counters from before admin keys were counted get `admin_key_count` set. Both
 * writes are conditional, so of two concurrent first writers one seeds and the other uses that;
 * no counted write happens before the seed, because every writer calls this first.
 */
export async function ensureKeyCount(deps: KeyCountDeps, tenantId: string): Promise<void> {
  const counter = await deps.table.get(keyCountKey(tenantId), { consistent: true });
  if (counter && typeof counter.admin_key_count === 'number') return;
  const [keys, users] = await Promise.all([deps.keys.list(tenantId), deps.team.listUsers(tenantId)]);
  const adminKeys = countAdminKeys(keys, new Map(users.map((user) => [user.id, user.role])));
  const seed: WriteOp = counter
    ? {
        type: 'update',
        key: keyCountKey(tenantId),
        set: { admin_key_count: adminKeys },
        condition: { kind: 'attrNotExists', attr: 'admin_key_count' },
      }
    : newKeyCountOp(tenantId, keys.length, adminKeys);
  try {
    await deps.table.transact([seed]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
