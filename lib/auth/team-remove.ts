import { ConflictError, NotFoundError } from '../platform/errors.ts';
import { isId } from '../platform/ids.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table, type WriteOp } from '../store/table.ts';
import { deleteKeyOps, type KeyStore } from './key-store.ts';
import type { Principal } from './principal.ts';
import type { ApiKeyRecord } from './records.ts';
import type { TeamStore } from './team-store.ts';
import { tenancyKeys } from './tenancy-keys.ts';
import type { TenantStore } from './tenant-store.ts';

export interface RemoveDeps {
  table: Table;
  team: TeamStore;
  keys: KeyStore;
  tenants: TenantStore;
}

const notFound = () => new NotFoundError('team member or invitation');

// Op order matters: failed condition indexes are mapped back to answers below.
const USER_OP = 0;
const ADMIN_COUNT_OP = 2;

/** Splits keys into groups whose delete ops (two per key) fit into `room` operations. */
function keyChunks(keys: ApiKeyRecord[], firstRoom: number): ApiKeyRecord[][] {
  const firstSize = Math.floor(firstRoom / 2);
  const restSize = Math.floor(MAX_TRANSACTION_OPS / 2);
  const chunks = [keys.slice(0, firstSize)];
  for (let i = firstSize; i < keys.length; i += restSize) chunks.push(keys.slice(i, i + restSize));
  return chunks;
}

/**
 * Removes a member and revokes their keys. The first transaction deletes the user item (so none of
 * their keys authenticates any more), decrements `admin_count` for an admin under the condition
 * that another admin remains, and deletes as many keys as fit; the remaining keys follow in chunks.
 */
async function removeMember(tenantId: string, userId: string, deps: RemoveDeps): Promise<void> {
  const user = await deps.tenants.getUser(tenantId, userId);
  if (!user) throw notFound();
  const keys = (await deps.keys.list(tenantId)).filter((key) => key.user_id === userId);
  const head: WriteOp[] = [
    { type: 'delete', key: tenancyKeys.user(tenantId, userId), condition: { kind: 'itemExists' } },
    { type: 'delete', key: tenancyKeys.userEmail(tenantId, user.email) },
  ];
  if (user.role === 'admin') {
    head.push({
      type: 'update',
      key: tenancyKeys.tenant(tenantId),
      add: { admin_count: -1 },
      condition: { kind: 'compare', attr: 'admin_count', op: '>', value: 1 },
    });
  }
  const [first = [], ...rest] = keyChunks(keys, MAX_TRANSACTION_OPS - head.length);
  try {
    await deps.table.transact([...head, ...first.flatMap(deleteKeyOps)]);
  } catch (err) {
    if (err instanceof ConditionFailedError && err.failed.includes(USER_OP)) throw notFound();
    if (err instanceof ConditionFailedError && err.failed.includes(ADMIN_COUNT_OP)) {
      throw new ConflictError('the last admin of an account cannot be removed');
    }
    throw err;
  }
  for (const chunk of rest) await deps.table.transact(chunk.flatMap(deleteKeyOps));
}

/** Cancels a pending invitation: the invitation, its token lookup and its e-mail uniqueness item. */
async function cancelInvitation(tenantId: string, invitationId: string, deps: RemoveDeps): Promise<void> {
  const invitation = await deps.team.getInvitation(tenantId, invitationId);
  if (!invitation) throw notFound();
  const emailItem = await deps.team.getInvitationEmail(tenantId, invitation.email);
  const ops: WriteOp[] = [
    {
      type: 'delete',
      key: tenancyKeys.invitation(tenantId, invitationId),
      condition: { kind: 'itemExists' },
    },
    { type: 'delete', key: tenancyKeys.invitationToken(invitation.token_hash) },
  ];
  // The e-mail item may already belong to a newer invitation (this one expired and was replaced).
  if (emailItem?.invitation_id === invitationId) {
    ops.push({
      type: 'delete',
      key: tenancyKeys.invitationEmail(tenantId, invitation.email),
      condition: { kind: 'compare', attr: 'invitation_id', op: '=', value: invitationId },
    });
  }
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
