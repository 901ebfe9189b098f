import { setTimeout as delay, setImmediate as nextTurn } from 'node:timers/promises';
import type { TransitionRecord } from '../checks/records.ts';
import { type SseSink, sseStream, untilAborted } from '../http/router.ts';
import type { Clock } from '../platform/clock.ts';
import { ValidationError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import type { Table } from '../store/table.ts';
import { type StreamHolder, type StreamSlots, takeStreamSlot } from '../streams/stream-slots.ts';
import {
  anyTransitionBetween,
  createSentIds,
  newestTransitions,
  positionAt,
  positionFrame,
  resetFrame,
  timeOfPosition,
  transitionFrame,
  transitionsAfter,
} from './stream-events.ts';
import { createLiveFollower } from './stream-follow.ts';
import { createLiveHub, createLivePublisher, type LiveHub } from './stream-hub.ts';

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
  /** Open streams per key and per tenant (429 past the cap). */
  slots: StreamSlots;
}

/** A resume replays at most this many transitions... */
export const REPLAY_MAX_EVENTS = 1000;
/** ...and none older than this; a Last-Event-ID further back gets a `reset` event first. */
const REPLAY_MAX_AGE_MS = 24 * 3600_000;
/** Frames sent between two turns of the event loop while replaying. */
const REPLAY_CHUNK = 100;

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
  const hub = settings.follow === 'push' ? createLiveHub() : undefined;

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
      await nextTurn();
    }
  };

  /**
   * The replay a stream starts with: the newest REPLAY_MAX_EVENTS transitions after `start`, none
   * older than REPLAY_MAX_AGE_MS, sent in chunks that yield to the event loop (many streams
   * replaying at once must not hold up other requests). When it leaves out transitions after
   * `start`, a `reset` event comes first. Returns the position the replay began after.
   */
  const catchUp = async (
    tenantId: string,
    start: string,
    sink: SseSink,
    deliver: (t: TransitionRecord) => void,
  ): Promise<string> => {
    const now = deps.clock.now();
    const oldest = positionAt(now - REPLAY_MAX_AGE_MS);
    const after = maxOf(start, oldest);
    const recent = await newestTransitions(deps.table, tenantId, after, now, REPLAY_MAX_EVENTS);
    if (
      recent.truncated ||
      (start < oldest && (await anyTransitionBetween(deps.table, tenantId, start, oldest)))
    )
      sink.send(resetFrame(recent.resumeFrom));
    for (let i = 0; i < recent.transitions.length && !sink.signal.aborted; i += REPLAY_CHUNK) {
      for (const t of recent.transitions.slice(i, i + REPLAY_CHUNK)) deliver(t);
      await sink.ready();
      await nextTurn();
    }
    return recent.resumeFrom;
  };

  /** Replay, then live events from the hub; subscribed first, so nothing committed meanwhile is lost. */
  const pushed = (hubIn: LiveHub, tenantId: string, start: string) => async (sink: SseSink) => {
    const sent = createSentIds();
    const deliver = (t: TransitionRecord) => {
      if (sent.add(t.id)) sink.send(transitionFrame(t));
    };
    let held: TransitionRecord[] | undefined = [];
    // The status stream tells state changes only: incident changes are MCP's (docs/mcp.md).
    const unsubscribe = hubIn.subscribe(tenantId, (change) => {
      if (change.kind !== 'transition') return;
      if (held) held.push(change.transition);
      else deliver(change.transition);
    });
    try {
      await catchUp(tenantId, start, sink, deliver);
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
    // Nothing before `base` is read again: a reset skipped it.
    const base = await catchUp(tenantId, start, sink, deliver);
    newest = maxOf(newest, base);
    for (;;) {
      const from = maxOf(base, minOf(newest, positionAt(deps.clock.now() - SETTLE_MS)));
      await replay(tenantId, from, sink, deliver);
      const left = deadline - deps.clock.now();
      if (sink.signal.aborted || left <= 0) break;
      await delay(Math.min(pollMs, left), undefined, { signal: sink.signal }).catch(() => undefined);
    }
    if (!sink.signal.aborted && newest !== lastSent) sink.send(positionFrame(newest));
  };

  const service = {
    /**
     * The stream of the caller's tenant's state changes after `lastEventId` (a transition id or a
     * position this stream named); without one, from now on. A position ahead of the clock is
     * refused (400); past the open-stream caps of the caller's key or tenant, 429. A stream of a
     * named client replaces that client's previous stream, which ends.
     */
    async open(caller: StreamHolder, lastEventId: string | undefined): Promise<ReadableStream<Uint8Array>> {
      const now = deps.clock.now();
      if (lastEventId !== undefined && timeOfPosition(lastEventId) > now + MAX_AHEAD_MS)
        throw ValidationError.field(
          'last-event-id',
          'Use an event id that is not ahead of the server clock.',
        );
      const slot = await takeStreamSlot(deps.slots, 'status', caller);
      const { tenantId } = caller;
      const start = lastEventId ?? positionAt(now);
      const produce = hub ? pushed(hub, tenantId, start) : polled(tenantId, start);
      return sseStream(
        async (sink) => {
          try {
            sink.send({ retry: RETRY_MS });
            // Without a Last-Event-ID the client still gets a position, so a dropped connection resumes losslessly.
            if (lastEventId === undefined) sink.send(positionFrame(start));
            // Replaced by the same client's next stream: this one ends (its client has left it).
            await produce({ ...sink, signal: AbortSignal.any([sink.signal, slot.replaced]) });
          } finally {
            await slot.release();
          }
        },
        { heartbeatMs, logger: deps.logger },
      );
    },
  };

  const consumer: ChangeConsumer | undefined = hub ? createLivePublisher(hub) : undefined;
  const follow = createLiveFollower(deps, hub, pollMs);
  return { service, consumer, follow };
}

export type StatusStreamService = ReturnType<typeof createStatusStream>['service'];
