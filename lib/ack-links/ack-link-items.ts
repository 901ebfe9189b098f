import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Owner of `ack_link` (DECISIONS.md "On-call (wave 5)": `/a/{token}`, single-use, 24 h, scoped to
 * one incident and one person). One item per link under the SHA-256 of its token
 * (`ACKLINK#<sha256>`): the token itself is never stored, as for API keys and calendar feeds. It
 * carries `ttl` = `expires_at`, and readers check `expires_at` too (TTL is lazy). Using a link is a
 * write conditioned on its being live and unexpired, so it works once; a used link stays until its
 * expiry so a second press can say it was used.
 */

const ackLinkSchema = z.object({
  token_hash: z.string(),
  tenant_id: z.string(),
  incident_id: z.string(),
  /** The person the link acknowledges as (the one paged). */
  user_id: z.string(),
  state: z.enum(['live', 'used']),
  created_at: z.string(),
  expires_at: z.string(),
  used_at: z.string().nullable(),
});
export type AckLinkRecord = z.infer<typeof ackLinkSchema>;

const ackLink = defineItem({
  type: itemType('ack_link'),
  schema: ackLinkSchema,
  key: (k: { token_hash: string }) => ({ pk: `ACKLINK#${k.token_hash}`, sk: 'LINK' }),
  ttl: (r) => Math.ceil(Date.parse(r.expires_at) / 1000),
  docKey: { token_hash: '<sha256 of token>' },
});

/** The link of a token's hash (one consistent get), expired ones included, or undefined. */
export function findAckLink(table: Table, tokenHash: string): Promise<AckLinkRecord | undefined> {
  return ackLink.get(table, { token_hash: tokenHash }, { consistent: true });
}

/** The put of a new link (its hash must not be there yet). */
export function ackLinkCreatedOp(record: AckLinkRecord): WriteOp {
  return ackLink.put(record, { kind: 'itemNotExists' });
}

/** The write that uses a link up: only while it is live and unexpired at `at` (so it works once). */
export function ackLinkUsedOp(record: AckLinkRecord, at: string): WriteOp {
  return ackLink.update(
    { token_hash: record.token_hash },
    {
      set: { state: 'used', used_at: at },
      condition: {
        kind: 'and',
        conditions: [
          { kind: 'compare', attr: 'state', op: '=', value: 'live' },
          { kind: 'compare', attr: 'expires_at', op: '>', value: at },
        ],
      },
    },
  );
}
