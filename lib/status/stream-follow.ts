import { setTimeout as delay } from 'node:timers/promises';
import type { TransitionRecord } from '../checks/records.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { createSentIds, positionAt, transitionsAfter } from './stream-events.ts';
import type { TransitionHub } from './stream-hub.ts';

/**
 * Follows a tenant's entity transitions from now on, as the status stream does after its replay:
 * pushed from the process's hub where the change feed's consumers run here (local), polled from
 * the tenant's transition feed elsewhere (a Lambda). Other streams (MCP's `subscriptions/listen`)
 * hear the same changes the console's live stream shows.
 */
export type FollowTransitions = (
  tenantId: string,
  signal: AbortSignal,
  listener: (transition: TransitionRecord) => void,
) => Promise<void>;

/** How far behind the newest id a poll reads again (ids are taken before their writes commit). */
const SETTLE_MS = 5000;

const maxOf = (a: string, b: string) => (a > b ? a : b);
const minOf = (a: string, b: string) => (a < b ? a : b);

/** The follower of the hub when there is one, else a poll of the feed every `pollMs`; resolves once `signal` aborts. */
export function createTransitionFollower(
  deps: { table: Table; clock: Clock },
  hub: TransitionHub | undefined,
  pollMs: number,
): FollowTransitions {
  if (hub)
    return async (tenantId, signal, listener) => {
      if (signal.aborted) return;
      const unsubscribe = hub.subscribe(tenantId, listener);
      try {
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      } finally {
        unsubscribe();
      }
    };
  return async (tenantId, signal, listener) => {
    const base = positionAt(deps.clock.now());
    const sent = createSentIds();
    let newest = base;
    while (!signal.aborted) {
      let from: string | undefined = maxOf(base, minOf(newest, positionAt(deps.clock.now() - SETTLE_MS)));
      while (from !== undefined && !signal.aborted) {
        const page = await transitionsAfter(deps.table, tenantId, from, deps.clock.now());
        for (const t of page.transitions) {
          newest = maxOf(newest, t.id);
          if (sent.add(t.id)) listener(t);
        }
        from = page.next;
      }
      await delay(pollMs, undefined, { signal }).catch(() => undefined);
    }
  };
}
