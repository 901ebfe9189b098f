import type { Principal, Role } from '../../domain/principal.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import type { KeyStore } from '../keys/key-store.ts';
import type { TenantStore } from '../tenants/tenant-store.ts';
import type { MemberHooks } from './member-hooks.ts';
import { acceptInvitation } from './team-accept.ts';
import { inviteMember } from './team-invite.ts';
import { removeFromTeam } from './team-remove.ts';
import type { TeamStore } from './team-store.ts';
import { activeMember, pendingInvitation } from './team-views.ts';

export interface TeamServiceDeps {
  table: Table;
  team: TeamStore;
  keys: KeyStore;
  tenants: TenantStore;
  clock: Clock;
  /** What other features keep of a member: written on accepting, deleted on removal (lib/people). */
  hooks?: MemberHooks;
}

/** Team settings: members and invitations of the caller's tenant. */
export function createTeamService(deps: TeamServiceDeps) {
  return {
    /** Members first (oldest first), then unexpired invitations (oldest first); never tokens or hashes. */
    async list(principal: Principal) {
      const [users, invitations] = await Promise.all([
        deps.team.listUsers(principal.tenantId),
        deps.team.listInvitations(principal.tenantId),
      ]);
      const at = isoTime(deps.clock.now());
      return [
        ...users.map(activeMember),
        ...invitations.filter((invitation) => invitation.expires_at > at).map(pendingInvitation),
      ];
    },

    invite: (principal: Principal, input: { email: string; role: Role }) =>
      inviteMember(principal, input, deps),

    accept: (input: { token: string; name?: string | undefined; password?: string | undefined }) =>
      acceptInvitation(input, deps),

    remove: (principal: Principal, id: string) => removeFromTeam(principal, id, deps),
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
