import * as z from 'zod';
import { ROLES } from '../../domain/principal.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantItemKeys, tenantPk } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * A pending team invitation (`invitation`), its token lookup (`invitation_token`: hash ->
 * invitation, for accepting without an API key) and the uniqueness item of its e-mail
 * (`invitation_email`), always written and deleted together. Only the SHA-256 hash of a token is
 * stored. All three carry `ttl` = `expires_at`; readers check `expires_at` too (TTL is lazy).
 */

export const invitationSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  token_hash: z.string(),
  invited_by: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

const invitationTokenSchema = z.object({
  token_hash: z.string(),
  tenant_id: z.string(),
  invitation_id: z.string(),
  expires_at: z.string(),
});
export type InvitationToken = z.infer<typeof invitationTokenSchema>;

const invitationEmailSchema = z.object({
  invitation_id: z.string(),
  expires_at: z.string(),
});
export type InvitationEmail = z.infer<typeof invitationEmailSchema>;

/** Expiry in epoch seconds: the invitation's `expires_at`, rounded up. */
const ttlOf = (expiresAt: string) => Math.ceil(Date.parse(expiresAt) / 1000);

const INVITATION_PREFIX = 'INV#';

const invitation = defineItem({
  type: itemType('invitation'),
  schema: invitationSchema,
  ...tenantItemKeys(INVITATION_PREFIX, '<inv_id>'),
  ttl: (r) => ttlOf(r.expires_at),
});

const invitationToken = defineItem({
  type: itemType('invitation_token'),
  schema: invitationTokenSchema,
  key: (k: { token_hash: string }) => ({ pk: `INVTOKEN#${k.token_hash}`, sk: '#INVTOKEN' }),
  ttl: (r) => ttlOf(r.expires_at),
  docKey: { token_hash: '<sha256 of token>' },
});

const invitationEmail = defineItem({
  type: itemType('invitation_email'),
  schema: invitationEmailSchema,
  key: (k: { tenant_id: string; email: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `INVEMAIL#${k.email.toLowerCase()}`,
  }),
  keyOf: null,
  ttl: (r) => ttlOf(r.expires_at),
  docKey: { tenant_id: '<tnt>', email: '<lower-cased email>' },
});

/** Every stored invitation of the tenant, expired ones included (TTL deletion is lazy; consistent). */
export async function listInvitations(table: Table, tenantId: string): Promise<Invitation[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: INVITATION_PREFIX },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => invitation.parse(item));
}

/** The invitation, or undefined (consistent). */
export function getInvitation(
  table: Table,
  tenantId: string,
  invitationId: string,
): Promise<Invitation | undefined> {
  return invitation.get(table, { tenant_id: tenantId, id: invitationId }, { consistent: true });
}

/** The uniqueness item of an e-mail's pending invitation: which invitation holds it, until when. */
export function getInvitationEmail(
  table: Table,
  tenantId: string,
  email: string,
): Promise<InvitationEmail | undefined> {
  return invitationEmail.get(table, { tenant_id: tenantId, email }, { consistent: true });
}

/** The token lookup item of a token's hash, or undefined (consistent). */
export function findInvitationToken(table: Table, hash: string): Promise<InvitationToken | undefined> {
  return invitationToken.get(table, { token_hash: hash }, { consistent: true });
}

/**
 * The put of a new invitation's e-mail item: holds while no other invitation for the e-mail is
 * pending at `at` (duplicates rejected atomically, an expired one replaced).
 */
export function invitationEmailClaimOp(record: Invitation, at: string): WriteOp {
  return invitationEmail.putAt(
    { tenant_id: record.tenant_id, email: record.email },
    { invitation_id: record.id, expires_at: record.expires_at },
    {
      kind: 'or',
      conditions: [{ kind: 'itemNotExists' }, { kind: 'compare', attr: 'expires_at', op: '<=', value: at }],
    },
  );
}

/** The puts of a new invitation and its token lookup item (each fails if already there). */
export function invitationCreatedOps(record: Invitation): WriteOp[] {
  return [
    invitation.put(record, { kind: 'itemNotExists' }),
    invitationToken.put(
      {
        token_hash: record.token_hash,
        tenant_id: record.tenant_id,
        invitation_id: record.id,
        expires_at: record.expires_at,
      },
      { kind: 'itemNotExists' },
    ),
  ];
}

/** The deletes of an expired invitation replaced by a new one for its e-mail, and its token lookup. */
export function invitationReplacedOps(record: Invitation): WriteOp[] {
  return [invitation.delete(record), invitationToken.delete(record)];
}

/**
 * The deletes that consume an invitation on accepting, in this order: its token lookup (while it
 * is there and unexpired at `at`, so a token works once), the invitation, and its e-mail item
 * (while it still holds this invitation).
 */
export function invitationAcceptedOps(record: Invitation, at: string): WriteOp[] {
  return [
    invitationToken.delete(record, {
      kind: 'and',
      conditions: [{ kind: 'itemExists' }, { kind: 'compare', attr: 'expires_at', op: '>', value: at }],
    }),
    invitation.delete(record, { kind: 'itemExists' }),
    invitationEmailReleaseOp(record),
  ];
}

/**
 * The deletes of a cancelled invitation: the invitation (while there) and its token lookup, and
 * its e-mail item when `holdsEmail` (it may already belong to a newer invitation).
 */
export function invitationCancelledOps(record: Invitation, holdsEmail: boolean): WriteOp[] {
  return [
    invitation.delete(record, { kind: 'itemExists' }),
    invitationToken.delete(record),
    ...(holdsEmail ? [invitationEmailReleaseOp(record)] : []),
  ];
}

/** The delete of an invitation's e-mail item, while it still holds this invitation. */
function invitationEmailReleaseOp(record: Invitation): WriteOp {
  return invitationEmail.delete(
    { tenant_id: record.tenant_id, email: record.email },
    { kind: 'compare', attr: 'invitation_id', op: '=', value: record.id },
  );
}
