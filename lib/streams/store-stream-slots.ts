import { randomUUID } from 'node:crypto';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import {
  type Lease,
  type LeaseScope,
  type LeaseSlot,
  leaseReleasedOp,
  leaseRenewedOp,
  leaseTakenOp,
  listLeases,
} from './stream-lease-items.ts';
import type { SlotAnswer, StreamCaps, StreamSlot, StreamSlots } from './stream-slots.ts';

/**
 * Stream slots as lease items in the table (`stream-lease-items.ts`), shared by every Lambda
 * instance. A stream takes a free slot of its key and one of its tenant in one conditional
 * transaction (free: absent, or its lease expired), renews both while it is open and deletes them
 * when it ends. A holder that vanished (a Lambda instance that crashed or timed out) stops
 * renewing, so its slots are free again once their lease expires. A stream of a named client
 * (`StreamHolder.client`) records it, with its tenant slot (`pair`), on its key's slot item: the
 * same client's next stream takes both items over (conditioned on the old holder), and the old
 * stream ends at once in the same instance, else at its next renewal, which finds the item taken.
 */

/** How long a lease lasts without renewal; an open stream renews it every third of this. */
const STREAM_LEASE_MS = 60_000;
/** Attempts at taking slots when another stream took the chosen ones first. */
const ATTEMPTS = 3;

interface Scope {
  refused: 'key' | 'tenant';
  leases: LeaseScope;
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

  /** Streams of this instance by holder id: a takeover by the same client ends the old one at once. */
  const local = new Map<string, AbortController>();

  /** The scope's slot numbers not held by a live lease, and the live leases. */
  const readScope = async (scope: Scope, now: number): Promise<{ free: number[]; live: Lease[] }> => {
    const live = (await listLeases(table, scope.leases)).filter((lease) => lease.expires_at > now);
    const held = new Set(live.map((lease) => lease.slot));
    const free: number[] = [];
    for (let n = 0; n < scope.cap; n += 1) if (!held.has(n)) free.push(n);
    return { free, live };
  };

  /** The slots `holder` took: renewed while held, deleted (if still its own) on release. */
  const heldSlots = (slots: LeaseSlot[], holder: string): StreamSlot => {
    const replace = new AbortController();
    local.set(holder, replace);
    const renew = async () => {
      const expiresAt = clock.now() + leaseMs;
      for (const slot of slots) await table.update(leaseRenewedOp(slot, holder, expiresAt));
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
        for (const slot of slots) {
          try {
            await table.transact([leaseReleasedOp(slot, holder)]);
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
        scopes.push({ refused: 'key', leases: { kind, scope: 'KEY', id: holder.keyId }, cap: caps.perKey });
      if (caps.perTenant > 0)
        scopes.push({
          refused: 'tenant',
          leases: { kind, scope: 'TENANT', id: holder.tenantId },
          cap: caps.perTenant,
        });
      if (scopes.length === 0)
        return { slot: { release: async () => {}, replaced: new AbortController().signal } };
      const id = randomUUID();
      let lost: Scope | undefined;
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        const now = clock.now();
        const read = await Promise.all(scopes.map((scope) => readScope(scope, now)));
        // The same client's previous stream, whose slots this one takes over.
        const before =
          holder.client === undefined || scopes[0]?.refused !== 'key'
            ? undefined
            : read[0]?.live.find((lease) => lease.client === holder.client);
        const takes: { slot: LeaseSlot; from: { expiredBy: number } | { holder: string } }[] = [];
        for (const [i, scope] of scopes.entries()) {
          const inherited = before && (scope.refused === 'key' ? before.slot : before.pair);
          if (before && inherited !== undefined) {
            takes.push({ slot: { ...scope.leases, slot: inherited }, from: { holder: before.holder } });
            continue;
          }
          const numbers = read[i]?.free ?? [];
          // A random free slot, so streams opening at once rarely race for the same one.
          const n = numbers[Math.floor(Math.random() * numbers.length)];
          if (n === undefined) return { refused: scope.refused };
          takes.push({ slot: { ...scope.leases, slot: n }, from: { expiredBy: now } });
        }
        const pair = scopes[1] ? takes[1]?.slot.slot : undefined;
        const named = {
          ...(holder.client === undefined ? {} : { client: holder.client }),
          ...(pair === undefined ? {} : { pair }),
        };
        try {
          await table.transact(
            takes.map(({ slot, from }, i) =>
              leaseTakenOp(slot, { holder: id, expires_at: now + leaseMs, ...(i === 0 ? named : {}) }, from),
            ),
          );
          if (before) local.get(before.holder)?.abort();
          return {
            slot: heldSlots(
              takes.map((t) => t.slot),
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
