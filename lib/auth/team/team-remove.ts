import type { Principal } from '../../domain/principal.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { isId } from '../../platform/ids.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table, type WriteOp } from '../../store/table.ts';
import { type ApiKeyRecord, apiKeyDeletedOps } from '../keys/api-key-items.ts';
import { ensureKeyCount, isAdminKey, lastAdminKeyError } from '../keys/key-count.ts';
import { uncountKeysOp } from '../keys/key-count-items.ts';
import type { KeyStore } from '../keys/key-store.ts';
import { adminLeftOp } from '../tenants/tenant-items.ts';
import type { TenantStore } from '../tenants/tenant-store.ts';
import { type User, userRemovedOps } from '../tenants/user-items.ts';
import { invitationCancelledOps } from './invitation-items.ts';
import type { MemberHooks } from './member-hooks.ts';
import type { TeamStore } from './team-store.ts';

export interface RemoveDeps {
  table: Table;
  team: TeamStore;
  keys: KeyStore;
  tenants: TenantStore;
  hooks?: MemberHooks;
}

const notFound = () => new NotFoundError('team member or invitation');

// Op order matters: failed condition indexes are mapped back to answers below.
const ADMIN_COUNT_OP = 2;

/** What the 409 of removing the admin who holds the account's last admin keys says. */
const LAST_ADMIN_KEYS_MESSAGE =
  "This admin holds the account's last read-write keys with admin rights; another admin needs a read-write key before this one can be removed.";

/**
 * Delete ops of as many of `keys` as fit into `room` operations, with the counter op (last) that
 * takes them off and, in the first transaction, all `adminKeys` of the member at once: their keys
 * stop being admin keys when the user item goes, so the counter's condition keeps one elsewhere.
 */
function keyDeletes(tenantId: string, keys: ApiKeyRecord[], room: number, adminKeys = 0): WriteOp[] {
  const chunk = keys.slice(0, Math.floor((room - 1) / 2));
  if (chunk.length === 0) return [];
  return [...chunk.flatMap(apiKeyDeletedOps), uncountKeysOp(tenantId, chunk.length, adminKeys)];
}

const userKeys = async (deps: RemoveDeps, tenantId: string, userId: string) =>
  (await deps.keys.list(tenantId)).filter((key) => key.user_id === userId);

/**
 * The first transaction's head: the user item (still there, and given no key since it was read:
 * `key_serial` unchanged), their e-mail item and, for an admin, `admin_count` under the condition
 * that another admin remains.
 */
function headOps(tenantId: string, user: User, hooks?: MemberHooks): WriteOp[] {
  return [
    ...userRemovedOps(user),
    ...(user.role === 'admin' ? [adminLeftOp(tenantId)] : []),
    // After the admin count (its index is ADMIN_COUNT_OP): the credential and sign-in lookup.
    ...(hooks?.removedOps(user) ?? []),
  ];
}

/** Rounds of the key deletion after the first transaction at most (a round deletes up to 49 keys). */
const MAX_KEY_ROUNDS = 50;

/**
 * Removes a member and revokes their keys. The first transaction deletes the user item (so none of
 * their keys authenticates any more), decrements `admin_count` for an admin under the condition
 * that another admin remains, and deletes as many keys as fit (taking them off the tenant's key
 * counter, and all of an admin's read-write keys off its admin keys under the condition that one
 * stays elsewhere: 409 otherwise); the remaining keys follow in chunks. A key deleted meanwhile by
 * another request fails its transaction, which is then tried again with the keys that are left.
 */
async function removeMember(tenantId: string, userId: string, deps: RemoveDeps): Promise<void> {
  let user = await deps.tenants.getUser(tenantId, userId);
  if (!user) throw notFound();
  await ensureKeyCount(deps, tenantId);
  for (let attempt = 1; ; attempt += 1) {
    const keys = await userKeys(deps, tenantId, userId);
    const adminKeys = keys.filter((key) => isAdminKey(key, user?.role)).length;
    const head = headOps(tenantId, user, deps.hooks);
    const ops = [...head, ...keyDeletes(tenantId, keys, MAX_TRANSACTION_OPS - head.length, adminKeys)];
    try {
      await deps.table.transact(ops);
      break;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      if (err.failed.includes(ADMIN_COUNT_OP) && user.role === 'admin') {
        throw new ConflictError('the last admin of an account cannot be removed');
      }
      const lastKeys =
        adminKeys > 0 ? lastAdminKeyError(err, ops.length - 1, LAST_ADMIN_KEYS_MESSAGE) : undefined;
      if (lastKeys) throw lastKeys;
      if (attempt >= 3) throw err;
      // Removed meanwhile, or given a key since its keys were listed (its key_serial moved): again.
      user = await deps.tenants.getUser(tenantId, userId);
      if (!user) throw notFound();
    }
  }
  await deps.hooks?.removed(tenantId, userId);
  for (let round = 0; round < MAX_KEY_ROUNDS; round += 1) {
    const rest = await userKeys(deps, tenantId, userId);
    if (rest.length === 0) return;
    try {
      await deps.table.transact(keyDeletes(tenantId, rest, MAX_TRANSACTION_OPS));
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
  }
}

/** Cancels a pending invitation: the invitation, its token lookup and its e-mail uniqueness item. */
async function cancelInvitation(tenantId: string, invitationId: string, deps: RemoveDeps): Promise<void> {
  const invitation = await deps.team.getInvitation(tenantId, invitationId);
  if (!invitation) throw notFound();
  const emailItem = await deps.team.getInvitationEmail(tenantId, invitation.email);
  // The e-mail item may already belong to a newer invitation (this one expired and was replaced).
  const ops = invitationCancelledOps(invitation, emailItem?.invitation_id === invitationId);
  try {
    await deps.table.transact(ops);
  } catch (err) {
    // Accepted, cancelled or replaced meanwhile: it is gone either way.
    if (err instanceof ConditionFailedError) throw notFound();
    throw err;
  }
}

/** DELETE /v1/settings/users/{id}: `usr_...` removes a member, `inv_...` cancels an invitation. */
export async function removeFromTeam(principal: Principal, id: string, deps: RemoveDeps): Promise<void> {
  if (isId('usr', id)) return removeMember(principal.tenantId, id, deps);
  if (isId('inv', id)) return cancelInvitation(principal.tenantId, id, deps);
  throw notFound();
}
