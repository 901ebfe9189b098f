import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table } from '../store/table.ts';
import {
  type Invitation,
  type InvitationToken,
  invitationEmailSchema,
  invitationSchema,
  invitationTokenSchema,
  type User,
  userSchema,
} from './records.ts';
import { tenancyKeys } from './tenancy-keys.ts';

/** Reads of team members, invitations and their helper items (all strongly consistent). */
export function createTeamStore(table: Table) {
  const listPrefix = (tenantId: string, prefix: string) =>
    queryAll((cursor) =>
      table.query({ pk: tenantPk(tenantId), sk: { op: 'beginsWith', prefix }, cursor, consistent: true }),
    );

  return {
    async listUsers(tenantId: string): Promise<User[]> {
      const items = await listPrefix(tenantId, 'USER#');
      return items.map((item) => parseItem(userSchema, item));
    },

    /** Every stored invitation, expired ones included (storage TTL deletion is lazy). */
    async listInvitations(tenantId: string): Promise<Invitation[]> {
      const items = await listPrefix(tenantId, 'INV#');
      return items.map((item) => parseItem(invitationSchema, item));
    },

    async getInvitation(tenantId: string, invitationId: string): Promise<Invitation | undefined> {
      const item = await table.get(tenancyKeys.invitation(tenantId, invitationId), { consistent: true });
      return item ? parseItem(invitationSchema, item) : undefined;
    },

    /** The uniqueness item of an e-mail's pending invitation: which invitation holds it, until when. */
    async getInvitationEmail(tenantId: string, email: string) {
      const item = await table.get(tenancyKeys.invitationEmail(tenantId, email), { consistent: true });
      return item ? parseItem(invitationEmailSchema, item) : undefined;
    },

    async findToken(hash: string): Promise<InvitationToken | undefined> {
      const item = await table.get(tenancyKeys.invitationToken(hash), { consistent: true });
      return item ? parseItem(invitationTokenSchema, item) : undefined;
    },
  };
}

export type TeamStore = ReturnType<typeof createTeamStore>;
