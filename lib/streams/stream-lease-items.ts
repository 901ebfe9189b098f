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
 * renewing, so its slots are free again once their lease expires.
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

const leaseSchema = z.object({ sk: z.string(), holder: z.string(), expires_at: z.number() }).loose();

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

  /** The scope's slot numbers not held by a live lease. */
  const freeSlots = async (scope: Scope, now: number): Promise<number[]> => {
    const page = await table.query({
      pk: scope.pk,
      sk: { op: 'beginsWith', prefix: SLOT_PREFIX },
      consistent: true,
      limit: MAX_QUERY_LIMIT,
    });
    const held = new Set(
      page.items
        .map((item) => leaseSchema.parse(item))
        .filter((lease) => lease.expires_at > now)
        .map((lease) => lease.sk),
    );
    const free: number[] = [];
    for (let n = 0; n < scope.cap; n += 1) if (!held.has(streamLeaseKeys.slot(scope.pk, n).sk)) free.push(n);
    return free;
  };

  /** The slots `holder` took: renewed while held, deleted (if still its own) on release. */
  const heldSlots = (keys: Key[], holder: string): StreamSlot => {
    const mine: Condition = { kind: 'compare', attr: 'holder', op: '=', value: holder };
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
        // Lost to another stream after an expiry (a stalled instance), or the table failed: the
        // lease runs out and the slot frees; the stream itself goes on.
        if (!(err instanceof ConditionFailedError)) deps.logger.warn('stream lease renewal failed', { err });
      });
    }, leaseMs / 3);
    timer.unref();
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        clearInterval(timer);
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
      if (scopes.length === 0) return { slot: { release: async () => {} } };
      const id = randomUUID();
      let lost: Scope | undefined;
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        const now = clock.now();
        const free = await Promise.all(scopes.map((scope) => freeSlots(scope, now)));
        const keys: Key[] = [];
        for (const [i, scope] of scopes.entries()) {
          const numbers = free[i] ?? [];
          // A random free slot, so streams opening at once rarely race for the same one.
          const n = numbers[Math.floor(Math.random() * numbers.length)];
          if (n === undefined) return { refused: scope.refused };
          keys.push(streamLeaseKeys.slot(scope.pk, n));
        }
        const takeable: Condition = {
          kind: 'or',
          conditions: [
            { kind: 'itemNotExists' },
            { kind: 'compare', attr: 'expires_at', op: '<=', value: now },
          ],
        };
        try {
          await table.transact(
            keys.map((key) => ({
              type: 'put' as const,
              item: { ...key, ...stamp(STREAM_LEASE), ...leaseFields(id, now) },
              condition: takeable,
            })),
          );
          return { slot: heldSlots(keys, id) };
        } catch (err) {
          if (!(err instanceof ConditionFailedError)) throw err;
          lost = scopes[err.failed[0] ?? 0];
        }
      }
      return { refused: lost?.refused ?? 'tenant' };
    },
  };
}
