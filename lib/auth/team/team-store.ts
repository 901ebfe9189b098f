import type { Table } from '../../store/table.ts';
import { listUsers } from '../tenants/user-items.ts';
import {
  findInvitationToken,
  getInvitation,
  getInvitationEmail,
  listInvitations,
} from './invitation-items.ts';

/** Reads of team members, invitations and their helper items (all strongly consistent). */
export function createTeamStore(table: Table) {
  return {
    listUsers: (tenantId: string) => listUsers(table, tenantId),

    /** Every stored invitation, expired ones included (storage TTL deletion is lazy). */
    listInvitations: (tenantId: string) => listInvitations(table, tenantId),

    getInvitation: (tenantId: string, invitationId: string) => getInvitation(table, tenantId, invitationId),

    /** The uniqueness item of an e-mail's pending invitation: which invitation holds it, until when. */
    getInvitationEmail: (tenantId: string, email: string) => getInvitationEmail(table, tenantId, email),

    findToken: (hash: string) => findInvitationToken(table, hash),
  };
}

export type TeamStore = ReturnType<typeof createTeamStore>;
