import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * Follows GET /v1/status/stream. EventSource cannot send the Authorization header, so the stream
 * is read with fetch and parsed with eventsource-parser; a cookie session sends no header (the
 * same-origin fetch carries the session cookie). After a drop it resumes with
 * Last-Event-ID (the server replays what was missed); failures back off 1 s, 2 s, 4 s … up to
 * 30 s; a 401 ends it (the key is gone). The URL is relative: locally and in the cloud (CloudFront
 * routes the path to the streaming function) the stream is on the console's origin.
 */

const STATUS_STREAM_PATH = '/v1/status/stream';

/** The state-change event of SPEC.md (the `data` of a `state_change` event). */
export interface StateChangeEvent {
  entity_id: string;
  entity_name: string;
  check_id: string;
  from_state: string;
  to_state: string;
  transition_id: string;
  timestamp: string;
}

export type StreamState = 'connecting' | 'live' | 'reconnecting';

/** The console's credential (web/src/api/client.ts): a key is sent as a header, a cookie session sends none. */
type StreamCredential = { kind: 'key'; key: string } | { kind: 'cookie'; csrfToken: string };

export interface StatusStreamOptions {
  credential: StreamCredential;
  /** Names the stream's client (X-Vigil-Stream-Client): its next stream replaces this one on the server. */
  client?: string | undefined;
  /** Resume after this event (what another tab's stream reached): nothing after it is missed. */
  lastEventId?: string | undefined;
  /** The stream moved to event id `id` (every event and position frame carries one). */
  onPosition?(id: string): void;
  onChange(event: StateChangeEvent): void;
  onState(state: StreamState): void;
  /** The server answered 401: the stream has stopped. */
  onUnauthorized(): void;
  /** The server refused the resume position, so changes may have been missed: refetch everything. */
  onResync?(): void;
  fetch?: typeof fetch;
}

const MAX_BACKOFF_MS = 30_000;

/** The wait before reconnect attempt `failures` (1, 2, 3 …): 1 s doubling, capped at 30 s. */
function backoffMs(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, failures - 1));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Starts following the stream; the returned function stops it (sign-out, unmount). */
export function followStatusStream(options: StatusStreamOptions): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  let lastEventId = options.lastEventId;
  let retryMs = 1000;
  let failures = 0;
  /** The wait a 429 named (Retry-After): the caps free a slot within it, so waiting longer gains nothing. */
  let askedMs: number | undefined;

  /** One connection: resolves when it ends cleanly, throws on failure, returns 'stop' on 401. */
  const connectOnce = async (): Promise<'ended' | 'stop'> => {
    const headers: Record<string, string> = {
      ...(options.credential.kind === 'key' ? { Authorization: `Bearer ${options.credential.key}` } : {}),
      Accept: 'text/event-stream',
    };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    if (options.client) headers['X-Vigil-Stream-Client'] = options.client;
    // Never cached: the server answers Cache-Control: no-cache without a validator.
    const res = await doFetch(STATUS_STREAM_PATH, { headers, signal, credentials: 'same-origin' });
    if (res.status === 401) return 'stop';
    if (res.status === 400 && lastEventId) {
      // The server refuses the position (it lost its place): start afresh and refetch everything.
      lastEventId = undefined;
      options.onResync?.();
      throw new Error('the stream refused the resume position');
    }
    if (res.status === 429) {
      const seconds = Number(res.headers.get('retry-after'));
      if (Number.isFinite(seconds) && seconds > 0) askedMs = Math.min(MAX_BACKOFF_MS, seconds * 1000);
    }
    if (!res.ok || !res.body) {
      void res.body?.cancel().catch(() => undefined);
      throw new Error(`the stream answered ${res.status}`);
    }
    failures = 0;
    options.onState('live');
    const parser = createParser({
      onEvent(message: EventSourceMessage) {
        if (message.id) {
          lastEventId = message.id;
          options.onPosition?.(message.id);
        }
        // Transitions were left out of the replay (the position was too old): reload everything.
        if (message.event === 'reset') options.onResync?.();
        if (message.event !== 'state_change') return;
        try {
          options.onChange(JSON.parse(message.data) as StateChangeEvent);
        } catch {
          // A malformed event carries nothing to show; the next one refreshes the same queries.
        }
      },
      onRetry(ms) {
        retryMs = ms;
      },
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        parser.feed(value);
      }
    } finally {
      reader.releaseLock();
    }
  };

  const run = async () => {
    options.onState('connecting');
    while (!signal.aborted) {
      let wait: number;
      try {
        const outcome = await connectOnce();
        if (outcome === 'stop') {
          if (!signal.aborted) options.onUnauthorized();
          return;
        }
        // A stream that ends on purpose (the cloud's 60 s) is resumed after the server's retry.
        wait = retryMs;
      } catch {
        if (signal.aborted) return;
        failures += 1;
        options.onState('reconnecting');
        wait = askedMs ?? backoffMs(failures);
        askedMs = undefined;
      }
      await sleep(wait, signal);
    }
  };
  void run();
  return () => controller.abort();
}
