import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { itemType, stamp } from '../store/item-type.ts';
import {
  type Condition,
  ConditionFailedError,
  type Key,
  MAX_QUERY_LIMIT,
  type Table,
} from '../store/table.ts';
import type { SlotAnswer, StreamCaps, StreamKind, StreamSlot, StreamSlots } from './stream-slots.ts';

/**
 * The stream lease item (`stream_lease`, docs/data-model.md): one slot of an API key's or a
 * tenant's open-stream cap, held by one open stream. A cap of n is n numbered slot items in one
 * partition; a stream takes a free slot of its key and one of its tenant in one conditional
 * transaction (free: absent, or its lease expired), renews both while it is open and deletes them
 * when it ends. A holder that vanished (a Lambda instance that crashed or timed out) stops
 * renewing, so its slots are free again once their lease expires. A stream of a named client
 * (`StreamHolder.client`) records it, with its tenant slot (`pair`), on its key's slot item: the
 * same client's next stream takes both items over (conditioned on the old holder), and the old
 * stream ends at once in the same instance, else at its next renewal, which finds the item taken.
 */
export const STREAM_LEASE = itemType('stream_lease');

/** How long a lease lasts without renewal; an open stream renews it every third of this. */
export const STREAM_LEASE_MS = 60_000;
/** Lease items outlive their expiry by this much before TTL may delete them. */
const TTL_GRACE_SECONDS = 60;
/** Attempts at taking slots when another stream took the chosen ones first. */
const ATTEMPTS = 3;
const SLOT_PREFIX = 'SLOT#';

export const streamLeaseKeys = {
  /** The slots of one key's (or tenant's) streams of one kind. */
  partition: (kind: StreamKind, scope: 'KEY' | 'TENANT', id: string) => `STREAMLEASE#${kind}#${scope}#${id}`,
  slot: (pk: string, n: number): Key => ({ pk, sk: `${SLOT_PREFIX}${String(n).padStart(4, '0')}` }),
};

const leaseSchema = z
  .object({
    sk: z.string(),
    holder: z.string(),
    expires_at: z.number(),
    client: z.string().optional(),
    pair: z.string().optional(),
  })
  .loose();
type Lease = z.infer<typeof leaseSchema>;

interface Scope {
  refused: 'key' | 'tenant';
  pk: string;
  cap: number;
}

export interface StoreStreamSlotsDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  caps: StreamCaps;
  /** @default STREAM_LEASE_MS */
  leaseMs?: number;
}

/** Stream slots shared by every Lambda instance through lease items in the table. */
export function createStoreStreamSlots(deps: StoreStreamSlotsDeps): StreamSlots {
  const { table, clock, caps } = deps;
  const leaseMs = deps.leaseMs ?? STREAM_LEASE_MS;
  const leaseFields = (holder: string, now: number) => ({
    holder,
    expires_at: now + leaseMs,
    ttl: Math.ceil((now + leaseMs) / 1000) + TTL_GRACE_SECONDS,
  });

  /** Streams of this instance by holder id: a takeover by the same client ends the old one at once. */
  const local = new Map<string, AbortController>();

  /** The scope's slot numbers not held by a live lease, and the live leases. */
  const readScope = async (scope: Scope, now: number): Promise<{ free: number[]; live: Lease[] }> => {
    const page = await table.query({
      pk: scope.pk,
      sk: { op: 'beginsWith', prefix: SLOT_PREFIX },
      consistent: true,
      limit: MAX_QUERY_LIMIT,
    });
    const live = page.items.map((item) => leaseSchema.parse(item)).filter((lease) => lease.expires_at > now);
    const held = new Set(live.map((lease) => lease.sk));
    const free: number[] = [];
    for (let n = 0; n < scope.cap; n += 1) if (!held.has(streamLeaseKeys.slot(scope.pk, n).sk)) free.push(n);
    return { free, live };
  };

  /** The slots `holder` took: renewed while held, deleted (if still its own) on release. */
  const heldSlots = (keys: Key[], holder: string): StreamSlot => {
    const mine: Condition = { kind: 'compare', attr: 'holder', op: '=', value: holder };
    const replace = new AbortController();
    local.set(holder, replace);
    const renew = async () => {
      const fields = leaseFields(holder, clock.now());
      for (const key of keys)
        await table.update({
          type: 'update',
          key,
          set: { expires_at: fields.expires_at, ttl: fields.ttl },
          condition: mine,
        });
    };
    const timer = setInterval(() => {
      renew().catch((err: unknown) => {
        // Taken over by the same client's next stream, or by another after an expiry (a stalled
        // instance): the stream holds no slot any more, so it ends (its client resumes losslessly).
        if (err instanceof ConditionFailedError) replace.abort();
        // The table failed: the lease runs out and the slot frees; the stream itself goes on.
        else deps.logger.warn('stream lease renewal failed', { err });
      });
    }, leaseMs / 3);
    timer.unref();
    let released = false;
    return {
      replaced: replace.signal,
      async release() {
        if (released) return;
        released = true;
        clearInterval(timer);
        local.delete(holder);
        for (const key of keys) {
          try {
            await table.transact([{ type: 'delete', key, condition: mine }]);
          } catch (err) {
            // Already taken over by another stream after an expiry: not ours to delete.
            if (!(err instanceof ConditionFailedError)) throw err;
          }
        }
      },
    };
  };

  return {
    async acquire(kind, holder): Promise<SlotAnswer> {
      const scopes: Scope[] = [];
      if (caps.perKey > 0)
        scopes.push({
          refused: 'key',
          pk: streamLeaseKeys.partition(kind, 'KEY', holder.keyId),
          cap: caps.perKey,
        });
      if (caps.perTenant > 0)
        scopes.push({
          refused: 'tenant',
          pk: streamLeaseKeys.partition(kind, 'TENANT', holder.tenantId),
          cap: caps.perTenant,
        });
      if (scopes.length === 0)
        return { slot: { release: async () => {}, replaced: new AbortController().signal } };
      const id = randomUUID();
      let lost: Scope | undefined;
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        const now = clock.now();
        const read = await Promise.all(scopes.map((scope) => readScope(scope, now)));
        const takeable: Condition = {
          kind: 'or',
          conditions: [
            { kind: 'itemNotExists' },
            { kind: 'compare', attr: 'expires_at', op: '<=', value: now },
          ],
        };
        // The same client's previous stream, whose slots this one takes over.
        const before =
          holder.client === undefined || scopes[0]?.refused !== 'key'
            ? undefined
            : read[0]?.live.find((lease) => lease.client === holder.client);
        const ownedBefore: Condition | undefined = before && {
          kind: 'compare',
          attr: 'holder',
          op: '=',
          value: before.holder,
        };
        const takes: { key: Key; condition: Condition }[] = [];
        for (const [i, scope] of scopes.entries()) {
          const inherited = before && (scope.refused === 'key' ? before.sk : before.pair);
          if (inherited !== undefined && ownedBefore) {
            takes.push({ key: { pk: scope.pk, sk: inherited }, condition: ownedBefore });
            continue;
          }
          const numbers = read[i]?.free ?? [];
          // A random free slot, so streams opening at once rarely race for the same one.
          const n = numbers[Math.floor(Math.random() * numbers.length)];
          if (n === undefined) return { refused: scope.refused };
          takes.push({ key: streamLeaseKeys.slot(scope.pk, n), condition: takeable });
        }
        const pair = scopes[1] ? takes[1]?.key.sk : undefined;
        const named = {
          ...(holder.client === undefined ? {} : { client: holder.client }),
          ...(pair === undefined ? {} : { pair }),
        };
        try {
          await table.transact(
            takes.map(({ key, condition }, i) => ({
              type: 'put' as const,
              item: { ...key, ...stamp(STREAM_LEASE), ...leaseFields(id, now), ...(i === 0 ? named : {}) },
              condition,
            })),
          );
          if (before) local.get(before.holder)?.abort();
          return {
            slot: heldSlots(
              takes.map((t) => t.key),
              id,
            ),
          };
        } catch (err) {
          if (!(err instanceof ConditionFailedError)) throw err;
          lost = scopes[err.failed[0] ?? 0];
        }
      }
      return { refused: lost?.refused ?? 'tenant' };
    },
  };
}
