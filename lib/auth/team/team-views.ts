import type { User } from '../tenants/user-items.ts';
import type { Invitation } from './invitation-items.ts';

/** The two kinds of entries of GET /v1/settings/users; never a token or a hash. */

/** The active-member view of a user. */
export function activeMember(user: User) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    status: 'active' as const,
    created_at: user.created_at,
  };
}

/** The pending-invitation view: never the token or its hash. */
export function pendingInvitation(invitation: Invitation) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    status: 'pending' as const,
    created_at: invitation.created_at,
    expires_at: invitation.expires_at,
  };
}
