import { setTimeout as delay } from 'node:timers/promises';
import type { TransitionRecord } from '../checks/records.ts';
import { type SseSink, sseStream, untilAborted } from '../http/stream-sse.ts';
import type { Clock } from '../platform/clock.ts';
import { ValidationError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import type { Table } from '../store/table.ts';
import {
  createSentIds,
  positionAt,
  positionFrame,
  timeOfPosition,
  transitionFrame,
  transitionsAfter,
} from './stream-events.ts';
import { createTransitionHub, createTransitionPublisher, type TransitionHub } from './stream-hub.ts';

/**
 * GET /v1/status/stream: the tenant's entity state changes as Server-Sent Events. A stream first
 * replays the transitions after the client's Last-Event-ID from the tenant's transition feed, then
 * follows new ones: pushed from the change feed where the consumers run in the same process (the
 * local runtime), polled from the feed elsewhere (a Lambda, which also ends the stream before its
 * timeout so the client reconnects with Last-Event-ID).
 */

export interface StatusStreamSettings {
  /** `push`: the change feed's consumers run in this process; `poll`: read the feed every `pollMs`. */
  follow: 'push' | 'poll';
  /** @default 15 000 */
  heartbeatMs?: number;
  /** @default 1 000 */
  pollMs?: number;
  /** Polled streams end after this long. @default 60 000 */
  maxDurationMs?: number;
}

/** How long the status-stream function (a function URL) streams before it ends and the client resumes. */
export const STATUS_STREAM_FUNCTION_MS = 60_000;

export interface StatusStreamDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
}

/** The client's reconnection delay: a polled stream ends on purpose, and the client should be quick. */
const RETRY_MS = 1000;
/**
 * How far behind the newest id a poll reads again. An id is taken before its write commits, so
 * a transition committed late may sort before ones already sent; the re-read finds it.
 */
const SETTLE_MS = 5000;
/** A Last-Event-ID further ahead of the clock than this cannot have come from this stream. */
const MAX_AHEAD_MS = 60_000;

const maxOf = (a: string, b: string) => (a > b ? a : b);
const minOf = (a: string, b: string) => (a < b ? a : b);

/** The status stream service with its follower; `consumer` feeds the hub (push mode only). */
export function createStatusStream(deps: StatusStreamDeps, settings: StatusStreamSettings) {
  const heartbeatMs = settings.heartbeatMs ?? 15_000;
  const pollMs = settings.pollMs ?? 1000;
  const maxDurationMs = settings.maxDurationMs ?? 60_000;
  const hub = settings.follow === 'push' ? createTransitionHub() : undefined;

  /** Sends every transition after `position`, page by page; returns the last position read. */
  const replay = async (
    tenantId: string,
    position: string,
    sink: SseSink,
    deliver: (t: TransitionRecord) => void,
  ): Promise<void> => {
    let from: string | undefined = position;
    while (from !== undefined && !sink.signal.aborted) {
      const page = await transitionsAfter(deps.table, tenantId, from, deps.clock.now());
      for (const t of page.transitions) deliver(t);
      from = page.next;
      await sink.ready();
    }
  };

  /** Replay, then live events from the hub; subscribed first, so nothing committed meanwhile is lost. */
  const pushed = (hubIn: TransitionHub, tenantId: string, start: string) => async (sink: SseSink) => {
    const sent = createSentIds();
    const deliver = (t: TransitionRecord) => {
      if (sent.add(t.id)) sink.send(transitionFrame(t));
    };
    let held: TransitionRecord[] | undefined = [];
    const unsubscribe = hubIn.subscribe(tenantId, (t) => (held ? held.push(t) : deliver(t)));
    try {
      await replay(tenantId, start, sink, deliver);
      for (const t of held) deliver(t);
      held = undefined;
      await untilAborted(sink.signal);
    } finally {
      unsubscribe();
    }
  };

  /** Reads the feed every pollMs until maxDurationMs, then names the position to resume from. */
  const polled = (tenantId: string, start: string) => async (sink: SseSink) => {
    const deadline = deps.clock.now() + maxDurationMs;
    const sent = createSentIds();
    let newest = start;
    let lastSent: string | undefined;
    const deliver = (t: TransitionRecord) => {
      if (!sent.add(t.id)) return;
      sink.send(transitionFrame(t));
      newest = maxOf(newest, t.id);
      lastSent = t.id;
    };
    for (;;) {
      const from = maxOf(start, minOf(newest, positionAt(deps.clock.now() - SETTLE_MS)));
      await replay(tenantId, from, sink, deliver);
      const left = deadline - deps.clock.now();
      if (sink.signal.aborted || left <= 0) break;
      await delay(Math.min(pollMs, left), undefined, { signal: sink.signal }).catch(() => undefined);
    }
    if (!sink.signal.aborted && newest !== lastSent) sink.send(positionFrame(newest));
  };

  const service = {
    /**
     * The stream of `tenantId`'s state changes after `lastEventId` (a transition id or a position
     * this stream named); without one, from now on. A position ahead of the clock is refused.
     */
    open(tenantId: string, lastEventId: string | undefined): ReadableStream<Uint8Array> {
      const now = deps.clock.now();
      if (lastEventId !== undefined && timeOfPosition(lastEventId) > now + MAX_AHEAD_MS)
        throw ValidationError.field('last-event-id', 'is ahead of the server clock');
      const start = lastEventId ?? positionAt(now);
      const produce = hub ? pushed(hub, tenantId, start) : polled(tenantId, start);
      return sseStream(
        async (sink) => {
          sink.send({ retry: RETRY_MS });
          // Without a Last-Event-ID the client still gets a position, so a dropped connection resumes losslessly.
          if (lastEventId === undefined) sink.send(positionFrame(start));
          await produce(sink);
        },
        { heartbeatMs, logger: deps.logger },
      );
    },
  };

  const consumer: ChangeConsumer | undefined = hub ? createTransitionPublisher(hub) : undefined;
  return { service, consumer };
}

export type StatusStreamService = ReturnType<typeof createStatusStream>['service'];
