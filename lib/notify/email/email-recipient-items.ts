import * as z from 'zod';
import { belowLimit } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { batchGetAll } from '../../store/items.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Condition, Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * Owner of the email channel's anti-relay items (issue 36), all in the tenant partition:
 * - `email_recipient`: one address an email channel of the tenant names, lower-cased: confirmed
 *   (`confirmed_at`) or pending, when its last confirmation email went out (the per-address rate
 *   limit) and the hash of that email's token;
 * - `email_confirm_token`: the SHA-256 hash of a confirmation link's token -> the address, until
 *   `expires_at` (ttl); deleted by the confirmation, so a link works once;
 * - `email_quota`: the emails (recipients) sent for the tenant on one UTC day, added to under a
 *   condition that holds the day's limit; expires two days later.
 */

const emailRecipientSchema = z.object({
  tenant_id: z.string(),
  address: z.string(),
  // Absent until set (conditions test their absence): confirmed, emailed, a token pending.
  confirmed_at: z.string().optional(),
  last_sent_at: z.string().optional(),
  token_hash: z.string().optional(),
});
export type EmailRecipient = z.infer<typeof emailRecipientSchema>;

const confirmTokenSchema = z.object({
  tenant_id: z.string(),
  address: z.string(),
  expires_at: z.string(),
});
export type ConfirmToken = z.infer<typeof confirmTokenSchema>;

const ttlOf = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

const recipient = defineItem({
  type: itemType('email_recipient'),
  schema: emailRecipientSchema,
  key: (k: { tenant_id: string; address: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `EMAILRCPT#${k.address.toLowerCase()}`,
  }),
  docKey: { tenant_id: '<tnt>', address: '<lower-cased email>' },
});

const confirmToken = defineItem({
  type: itemType('email_confirm_token'),
  schema: confirmTokenSchema,
  key: (k: { tenant_id: string; token_hash: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `EMAILTOKEN#${k.token_hash}`,
  }),
  keyOf: null,
  ttl: (r) => ttlOf(r.expires_at),
  docKey: { tenant_id: '<tnt>', token_hash: '<sha256 of token>' },
});

const quota = defineItem({
  type: itemType('email_quota'),
  schema: z.object({ count: z.number().int() }),
  key: (k: { tenant_id: string; day: string }) => ({ pk: tenantPk(k.tenant_id), sk: `EMAILQUOTA#${k.day}` }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', day: '<yyyy-mm-dd>' },
});

/** The recipients of these addresses that are stored (any order; consistent). */
export async function getRecipients(
  table: Table,
  tenantId: string,
  addresses: readonly string[],
): Promise<EmailRecipient[]> {
  if (addresses.length === 0) return [];
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const keys = unique.map((address) => recipient.key({ tenant_id: tenantId, address }));
  return recipient.parseAll(await batchGetAll(table, keys));
}

/** The token lookup of a token's hash in the tenant, or undefined (consistent; expired ones included). */
export function getConfirmToken(
  table: Table,
  tenantId: string,
  tokenHash: string,
): Promise<ConfirmToken | undefined> {
  return confirmToken.get(table, { tenant_id: tenantId, token_hash: tokenHash }, { consistent: true });
}

/**
 * The writes that issue a confirmation email's token: the recipient (created pending, or
 * updated) while it is unconfirmed and its last email went out at or before `notSentSince` (the
 * per-address rate limit, atomically), the new token's lookup item, and the previous token's delete.
 */
export function confirmationIssuedOps(input: {
  tenantId: string;
  address: string;
  tokenHash: string;
  previousHash: string | null;
  at: string;
  expiresAt: string;
  notSentSince: string;
}): WriteOp[] {
  const address = input.address.toLowerCase();
  const key = { tenant_id: input.tenantId, address };
  const condition: Condition = {
    kind: 'and',
    conditions: [
      { kind: 'attrNotExists', attr: 'confirmed_at' },
      {
        kind: 'or',
        conditions: [
          { kind: 'attrNotExists', attr: 'last_sent_at' },
          { kind: 'compare', attr: 'last_sent_at', op: '<=', value: input.notSentSince },
        ],
      },
    ],
  };
  const issued: WriteOp[] = [
    recipient.upsert(key, {
      set: {
        tenant_id: input.tenantId,
        address,
        last_sent_at: input.at,
        token_hash: input.tokenHash,
      },
      condition,
    }),
    confirmToken.putAt(
      { tenant_id: input.tenantId, token_hash: input.tokenHash },
      { tenant_id: input.tenantId, address, expires_at: input.expiresAt },
      { kind: 'itemNotExists' },
    ),
  ];
  if (input.previousHash)
    issued.push(confirmToken.delete({ tenant_id: input.tenantId, token_hash: input.previousHash }));
  return issued;
}

/**
 * The writes that confirm an address by its token, in this order: the token's delete while it is
 * there and unexpired at `at` (a link works once), then the recipient's confirmation.
 */
export function confirmedOps(tenantId: string, tokenHash: string, address: string, at: string): WriteOp[] {
  return [
    confirmToken.delete(
      { tenant_id: tenantId, token_hash: tokenHash },
      {
        kind: 'and',
        conditions: [{ kind: 'itemExists' }, { kind: 'compare', attr: 'expires_at', op: '>', value: at }],
      },
    ),
    recipient.update(
      { tenant_id: tenantId, address },
      { set: { confirmed_at: at }, remove: ['token_hash'], condition: { kind: 'itemExists' } },
    ),
  ];
}

/**
 * The add of `count` emails to the tenant's quota for `day` (UTC, yyyy-mm-dd), while the day's
 * total stays within `limit`: a ConditionFailedError means the quota is spent. The caller
 * refuses `count > limit` first (an absent counter passes the condition).
 */
export function quotaSpentOp(
  tenantId: string,
  day: string,
  count: number,
  limit: number,
  expiresAtSeconds: number,
): UpdateOp {
  return quota.upsert(
    { tenant_id: tenantId, day },
    { add: { count }, ttl: expiresAtSeconds, condition: belowLimit('count', limit - count + 1) },
  );
}
