import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { type Condition, MAX_QUERY_LIMIT, type Table, type UpdateOp, type WriteOp } from '../store/table.ts';

/**
 * The owner of the stream lease item (`stream_lease`, docs/data-model.md): one slot of an API
 * key's or a tenant's open-stream cap, held by one open stream until its lease expires. A cap of n
 * is n numbered slot items in one partition per key (or tenant) and stream kind. The slots service
 * (`store-stream-slots.ts`) takes, renews and releases them with these reads and writes.
 */

/** Lease items outlive their expiry by this much before TTL may delete them. */
const TTL_GRACE_SECONDS = 60;
const SLOT_PREFIX = 'SLOT#';

/** Whose slots: one key's or one tenant's, of one stream kind. */
export interface LeaseScope {
  kind: string;
  scope: 'KEY' | 'TENANT';
  id: string;
}

/** One numbered slot of a scope. */
export interface LeaseSlot extends LeaseScope {
  slot: number;
}

/** A stored lease: its slot, its holder (a stream's id) and until when it holds (epoch ms). */
export interface Lease {
  slot: number;
  holder: string;
  expires_at: number;
  /** The holder's client name (`StreamHolder.client`), on the key's slot of a named client's stream. */
  client?: string;
  /** The slot the same stream holds in its tenant's scope, next to `client`. */
  pair?: number;
}

const partition = (scope: LeaseScope) => `STREAMLEASE#${scope.kind}#${scope.scope}#${scope.id}`;
const slotSk = (n: number | string) => `${SLOT_PREFIX}${String(n).padStart(4, '0')}`;
const slotNumber = (sk: string) => Number(sk.slice(SLOT_PREFIX.length));

const leaseSchema = z.object({
  holder: z.string(),
  expires_at: z.number(),
  client: z.string().optional(),
  /** The tenant slot's sort key. */
  pair: z.string().optional(),
});
type LeaseRecord = z.infer<typeof leaseSchema>;

const streamLease = defineItem({
  type: itemType('stream_lease'),
  schema: leaseSchema,
  key: (k: LeaseSlot) => ({ pk: partition(k), sk: slotSk(k.slot) }),
  keyOf: null,
  ttl: (r) => Math.ceil(r.expires_at / 1000) + TTL_GRACE_SECONDS,
  docKey: { kind: '<kind>', scope: '<scope>', id: '<id>', slot: '<n, 4 digits>' },
});

/** Every lease item of a scope, live or expired (at most one page: a cap is well under it). */
export async function listLeases(table: Table, scope: LeaseScope): Promise<Lease[]> {
  const page = await table.query({
    pk: partition(scope),
    sk: { op: 'beginsWith', prefix: SLOT_PREFIX },
    consistent: true,
    limit: MAX_QUERY_LIMIT,
  });
  return page.items.map((item) => {
    const { pair, ...lease } = streamLease.parse(item);
    return { slot: slotNumber(item.sk), ...lease, ...(pair === undefined ? {} : { pair: slotNumber(pair) }) };
  });
}

const heldBy = (holder: string): Condition => ({ kind: 'compare', attr: 'holder', op: '=', value: holder });

/**
 * The write that takes `slot` for `lease`: while the slot is free (absent, or its lease expired by
 * `from.expiredBy`), or, for a takeover, while `from.holder` still holds it.
 */
export function leaseTakenOp(
  slot: LeaseSlot,
  lease: Omit<Lease, 'slot'>,
  from: { expiredBy: number } | { holder: string },
): WriteOp {
  const record: LeaseRecord = {
    holder: lease.holder,
    expires_at: lease.expires_at,
    ...(lease.client === undefined ? {} : { client: lease.client }),
    ...(lease.pair === undefined ? {} : { pair: slotSk(lease.pair) }),
  };
  const condition: Condition =
    'holder' in from
      ? heldBy(from.holder)
      : {
          kind: 'or',
          conditions: [
            { kind: 'itemNotExists' },
            { kind: 'compare', attr: 'expires_at', op: '<=', value: from.expiredBy },
          ],
        };
  return streamLease.putAt(slot, record, condition);
}

/** The renewal of `holder`'s lease of `slot` until `expiresAt` (fails once another holds it). */
export function leaseRenewedOp(slot: LeaseSlot, holder: string, expiresAt: number): UpdateOp {
  return streamLease.update(slot, {
    set: { expires_at: expiresAt },
    reindex: { holder, expires_at: expiresAt },
    condition: heldBy(holder),
  });
}

/** The release of `holder`'s lease of `slot` (fails when another holds it by now). */
export function leaseReleasedOp(slot: LeaseSlot, holder: string): WriteOp {
  return streamLease.delete(slot, heldBy(holder));
}
