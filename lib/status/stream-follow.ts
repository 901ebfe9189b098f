import { setTimeout as delay } from 'node:timers/promises';
import { readIncidentChanges } from '../incidents/incident-items.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { createSentIds, positionAt, transitionsAfter } from './stream-events.ts';
import type { LiveHub, LiveListener } from './stream-hub.ts';

/**
 * Follows a tenant's live changes (entity transitions, and incident changes no transition tells)
 * from now on, as the status stream does after its replay: pushed from the process's hub where the
 * change feed's consumers run here (local), polled from the tenant's transition feed and incident
 * changes elsewhere (a Lambda). Other streams (MCP's `subscriptions/listen` and session streams)
 * hear the same changes the console's live stream shows, and the incidents' too.
 */
export type FollowChanges = (tenantId: string, signal: AbortSignal, listener: LiveListener) => Promise<void>;

/** How far behind the newest id a poll reads again (ids are taken before their writes commit). */
const SETTLE_MS = 5000;
/** Incident changes one poll reads at most per page. */
const INCIDENT_PAGE = 100;

const maxOf = (a: string, b: string) => (a > b ? a : b);
const minOf = (a: string, b: string) => (a < b ? a : b);

/** The follower of the hub when there is one, else a poll of the feeds every `pollMs`; resolves once `signal` aborts. */
export function createLiveFollower(
  deps: { table: Table; clock: Clock },
  hub: LiveHub | undefined,
  pollMs: number,
): FollowChanges {
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
    const sent = createSentIds();
    /** Where each feed's reads begin: the newest id seen, less the settle window, never before the start. */
    const start = deps.clock.now();
    const feeds = {
      trn: { base: positionAt(start), newest: positionAt(start) },
      ich: { base: positionAt(start, 'ich'), newest: positionAt(start, 'ich') },
    };
    const from = (feed: { base: string; newest: string }, prefix: 'trn' | 'ich') =>
      maxOf(feed.base, minOf(feed.newest, positionAt(deps.clock.now() - SETTLE_MS, prefix)));
    while (!signal.aborted) {
      let after: string | undefined = from(feeds.trn, 'trn');
      while (after !== undefined && !signal.aborted) {
        const page = await transitionsAfter(deps.table, tenantId, after, deps.clock.now());
        for (const t of page.transitions) {
          feeds.trn.newest = maxOf(feeds.trn.newest, t.id);
          if (sent.add(t.id)) listener({ kind: 'transition', transition: t });
        }
        after = page.next;
      }
      after = from(feeds.ich, 'ich');
      while (after !== undefined && !signal.aborted) {
        const changes = await readIncidentChanges(deps.table, tenantId, after, INCIDENT_PAGE);
        for (const incident of changes) {
          feeds.ich.newest = maxOf(feeds.ich.newest, incident.id);
          if (sent.add(incident.id)) listener({ kind: 'incident', incident });
        }
        after = changes.length === INCIDENT_PAGE ? changes.at(-1)?.id : undefined;
      }
      await delay(pollMs, undefined, { signal }).catch(() => undefined);
    }
  };
}
