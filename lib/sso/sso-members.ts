import {
  getInvitation,
  getInvitationEmail,
  invitationAcceptedOps,
  listUsers,
  memberJoinedOp,
  type User,
  userCreatedOps,
} from '../auth/records.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../store/table.ts';
import type { SsoSettings } from './sso-items.ts';

/** Who signed in: the member, whether this sign-in created them, and whether the team is disabled. */
export interface SsoMember {
  user: User;
  created: boolean;
  disabled: boolean;
}

const findMember = async (table: Table, tenantId: string, email: string) =>
  (await listUsers(table, tenantId)).find((u) => u.email.toLowerCase() === email);

/**
 * The team member an SSO identity (a verified e-mail in an allowed domain) is: the existing
 * member with that e-mail, or a new one created on first sign-in, in one transaction with the
 * team's own ops (lib/auth): a pending invitation for the e-mail is consumed and its role wins,
 * else the settings' default role.
 */
export async function joinTeam(
  deps: { table: Table; clock: Clock },
  settings: SsoSettings,
  identity: { email: string; name: string },
): Promise<SsoMember> {
  const tenantId = settings.tenant_id;
  const existing = await findMember(deps.table, tenantId, identity.email);
  if (existing) return { user: existing, created: false, disabled: false };
  const now = deps.clock.now();
  const at = isoTime(now);
  const held = await getInvitationEmail(deps.table, tenantId, identity.email);
  const invitation =
    held && held.expires_at > at ? await getInvitation(deps.table, tenantId, held.invitation_id) : undefined;
  const pending = invitation && invitation.expires_at > at ? invitation : undefined;
  const user: User = {
    id: newId('usr', now),
    tenant_id: tenantId,
    email: identity.email,
    name: identity.name.slice(0, 100),
    role: pending?.role ?? settings.default_role,
    created_at: at,
    updated_at: at,
  };
  const invitationOps = pending ? invitationAcceptedOps(pending, at) : [];
  const ops: WriteOp[] = [
    ...invitationOps,
    memberJoinedOp(tenantId, user.role),
    ...userCreatedOps(user, { kind: 'itemNotExists' }),
  ];
  try {
    await deps.table.transact(ops);
  } catch (err) {
    if (!(err instanceof ConditionFailedError)) throw err;
    if (err.failed.includes(invitationOps.length)) return { user, created: false, disabled: true };
    // A concurrent first sign-in (or accept) created the member, or took the invitation: once more.
    const raced = await findMember(deps.table, tenantId, identity.email);
    if (raced) return { user: raced, created: false, disabled: false };
    throw err;
  }
  return { user, created: true, disabled: false };
}
