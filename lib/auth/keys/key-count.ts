import type { Role } from '../../domain/principal.ts';
import { ConflictError, LimitExceededError } from '../../platform/errors.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import type { UserDirectory } from '../tenants/user-items.ts';
import type { ApiKeyRecord } from './api-key-items.ts';
import { API_KEY_LIMIT, getKeyCount, newKeyCountOp, seedAdminKeyCountOp } from './key-count-items.ts';
import type { KeyStore } from './key-store.ts';

/**
 * An admin key: a read-write key of an existing admin user. Only such a key can manage keys and
 * the team (read-only keys get 403 READ_ONLY there, members' keys 403 FORBIDDEN or only their own
 * keys), so a tenant without one is locked out of its own administration.
 */
export function isAdminKey(key: Pick<ApiKeyRecord, 'is_read_only'>, ownerRole: Role | undefined): boolean {
  return !key.is_read_only && ownerRole === 'admin';
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
  team: UserDirectory;
}

/** The number of admin keys among `keys`, by their owners' roles. */
function countAdminKeys(keys: ApiKeyRecord[], roles: ReadonlyMap<string, Role>): number {
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
  const counter = await getKeyCount(deps.table, tenantId);
  if (counter && typeof counter.admin_key_count === 'number') return;
  const [keys, users] = await Promise.all([deps.keys.list(tenantId), deps.team.listUsers(tenantId)]);
  const adminKeys = countAdminKeys(keys, new Map(users.map((user) => [user.id, user.role])));
  const seed: WriteOp = counter
    ? seedAdminKeyCountOp(tenantId, adminKeys)
    : newKeyCountOp(tenantId, keys.length, adminKeys);
  try {
    await deps.table.transact([seed]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
