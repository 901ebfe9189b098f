import type { Principal, Role } from '../../domain/principal.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { generateToken } from '../api-key.ts';
import { noMemberWithEmailOp } from '../tenants/user-items.ts';
import {
  type Invitation,
  invitationCreatedOps,
  invitationEmailClaimOp,
  invitationReplacedOps,
} from './invitation-items.ts';
import type { TeamStore } from './team-store.ts';
import { pendingInvitation } from './team-views.ts';

/** How long an invitation token can be accepted. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface InviteDeps {
  table: Table;
  team: TeamStore;
  clock: Clock;
}

const pendingConflict = () => new ConflictError('a pending invitation for this e-mail already exists');
const memberConflict = () => new ConflictError('a team member with this e-mail already exists');

// Op order matters: failed condition indexes are mapped back to answers below.
const EMAIL_OP = 0;
const MEMBER_OP = 1;

/**
 * Invites `email` into the caller's tenant. One transaction stores the invitation, its token-hash
 * lookup and an e-mail uniqueness item (replacing an expired one), and checks no member has the e-mail.
 */
export async function inviteMember(
  principal: Principal,
  input: { email: string; role: Role },
  deps: InviteDeps,
) {
  const now = deps.clock.now();
  const at = isoTime(now);
  const expiresMs = now + INVITATION_TTL_MS;
  const tenantId = principal.tenantId;
  const { token, hash } = generateToken();
  const invitation: Invitation = {
    id: newId('inv', now),
    tenant_id: tenantId,
    email: input.email,
    role: input.role,
    token_hash: hash,
    invited_by: principal.userId,
    created_at: at,
    expires_at: isoTime(expiresMs),
  };

  const previous = await deps.team.getInvitationEmail(tenantId, input.email);
  if (previous && previous.expires_at > at) throw pendingConflict();
  // An expired invitation for the same e-mail is replaced; its items go with it instead of waiting for TTL.
  const stale = previous ? await deps.team.getInvitation(tenantId, previous.invitation_id) : undefined;
  const cleanup = stale ? invitationReplacedOps(stale) : [];

  const ops: WriteOp[] = [
    invitationEmailClaimOp(invitation, at),
    noMemberWithEmailOp(tenantId, input.email),
    ...invitationCreatedOps(invitation),
    ...cleanup,
  ];

  try {
    await deps.table.transact(ops);
  } catch (err) {
    if (err instanceof ConditionFailedError && err.failed.includes(MEMBER_OP)) throw memberConflict();
    if (err instanceof ConditionFailedError && err.failed.includes(EMAIL_OP)) throw pendingConflict();
    throw err;
  }
  return { ...pendingInvitation(invitation), token };
}
