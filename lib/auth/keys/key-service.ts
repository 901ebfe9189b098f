import type { Principal, Role } from '../../domain/principal.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFoundError, UnauthorizedError } from '../../platform/errors.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { keyOwnerOp, type UserDirectory } from '../tenants/user-items.ts';
import { type ApiKeyRecord, apiKeyDeletedOps } from './api-key-items.ts';
import { ensureKeyCount, isAdminKey, keyLimitError, lastAdminKeyError } from './key-count.ts';
import { countKeyOp, uncountKeysOp } from './key-count-items.ts';
import { type KeyStore, newKeyOps } from './key-store.ts';

export interface KeyServiceDeps {
  table: Table;
  keys: KeyStore;
  team: UserDirectory;
  clock: Clock;
}

/** What the 409 of revoking the tenant's last admin key says. */
const LAST_ADMIN_KEY_MESSAGE =
  "This is the account's last read-write key with admin rights; create another read-write key before revoking this one.";

/** The public view of a key: never the hash, never the raw key. */
function publicKey(key: ApiKeyRecord) {
  return {
    id: key.id,
    label: key.label,
    is_read_only: key.is_read_only,
    prefix: key.prefix,
    user_id: key.user_id,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
  };
}

/** The key's owner, for whom a key is created. */
export interface KeyOwner {
  tenantId: string;
  userId: string;
  role: Role;
}

/**
 * Creates a key for `owner`, counted against the tenant's key limit (403 LIMIT_EXCEEDED) and, when
 * it is read-write and the owner an admin, as an admin key. The raw key is in the result only.
 */
export async function createKeyFor(
  owner: KeyOwner,
  input: { label: string; readOnly: boolean },
  deps: Omit<KeyServiceDeps, 'keys'> & { keys: Pick<KeyStore, 'list'> },
) {
  const key = newKeyOps(
    { tenantId: owner.tenantId, userId: owner.userId, label: input.label, readOnly: input.readOnly },
    deps.clock.now(),
  );
  await ensureKeyCount(deps, owner.tenantId);
  const adminKey = isAdminKey(key.record, owner.role);
  try {
    // Index 0 is the limit, index 1 the owner (removed meanwhile: their keys no longer count).
    await deps.table.transact([
      countKeyOp(owner.tenantId, adminKey),
      keyOwnerOp(owner.tenantId, owner.userId),
      ...key.ops,
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError && error.failed.includes(1))
      throw new UnauthorizedError('the user of this API key has been removed from the account');
    throw keyLimitError(error, 0) ?? error;
  }
  return { ...publicKey(key.record), key: key.raw };
}

/**
 * API key management for the caller. Admins see and delete every key of the tenant; members their
 * own. A tenant holds at most API_KEY_LIMIT keys (403 LIMIT_EXCEEDED) and keeps at least one admin
 * key (409 CONFLICT on revoking the last one).
 */
export function createKeyService(deps: KeyServiceDeps) {
  const visible = (principal: Principal, key: ApiKeyRecord) =>
    principal.role === 'admin' || key.user_id === principal.userId;

  const ownerRole = async (principal: Principal, key: ApiKeyRecord): Promise<Role | undefined> => {
    if (key.user_id === principal.userId) return principal.role;
    const users = await deps.team.listUsers(principal.tenantId);
    return users.find((user) => user.id === key.user_id)?.role;
  };

  return {
    create: (principal: Principal, input: { label: string; is_read_only?: boolean | undefined }) =>
      createKeyFor(principal, { label: input.label, readOnly: input.is_read_only ?? false }, deps),

    async list(principal: Principal) {
      const keys = await deps.keys.list(principal.tenantId);
      return keys
        .filter((key) => visible(principal, key))
        .sort((a, b) => (a.id < b.id ? 1 : -1))
        .map(publicKey);
    },

    async remove(principal: Principal, keyId: string): Promise<void> {
      const key = await deps.keys.get(principal.tenantId, keyId);
      if (!key || !visible(principal, key)) throw new NotFoundError('API key');
      await ensureKeyCount(deps, principal.tenantId);
      const adminKeys = isAdminKey(key, await ownerRole(principal, key)) ? 1 : 0;
      const ops = [...apiKeyDeletedOps(key), uncountKeysOp(principal.tenantId, 1, adminKeys)];
      try {
        await deps.table.transact(ops);
      } catch (error) {
        // Deleted meanwhile (by another request, or with its member): op 0 is the key's delete.
        if (error instanceof ConditionFailedError && error.failed.includes(0))
          throw new NotFoundError('API key');
        throw lastAdminKeyError(error, ops.length - 1, LAST_ADMIN_KEY_MESSAGE) ?? error;
      }
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
