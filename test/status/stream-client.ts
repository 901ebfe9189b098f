import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** An SSE reader for tests: every event and comment parsed as it arrives, and waits on them. */
export interface SseCollector {
  events: EventSourceMessage[];
  comments: string[];
  /** The id of the newest event that carried one (what a client resumes with). */
  lastEventId(): string | undefined;
  /** The state_change events' data, parsed. */
  stateChanges(): Record<string, string>[];
  feed(chunk: string): void;
  /**
   * Resolves once `ready()` holds (checked on every frame); rejects after `timeoutMs` (default 10 s:
   * a bound for a loaded CI machine, not a latency the test asserts).
   */
  until(ready: () => boolean, timeoutMs?: number): Promise<void>;
}

export function createSseCollector(): SseCollector {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const check of [...waiters]) check();
  };
  const parser = createParser({
    onEvent: (event) => {
      events.push(event);
      wake();
    },
    onComment: (comment) => {
      comments.push(comment);
      wake();
    },
  });
  return {
    events,
    comments,
    lastEventId: () => events.findLast((e) => e.id !== undefined)?.id,
    stateChanges: () => events.filter((e) => e.event === 'state_change').map((e) => JSON.parse(e.data)),
    feed: (chunk) => parser.feed(chunk),
    until(ready, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`stream condition not met in ${timeoutMs} ms; events: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const check = () => {
          if (!ready()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** An open event stream over real HTTP (fetch), read in the background into a collector. */
export interface SseConnection extends SseCollector {
  status: number;
  headers: Headers;
  /** Resolves when the server ends the body (or the connection is closed). */
  ended: Promise<void>;
  close(): void;
}

/** GETs `url` with the given headers and reads the body as events as it comes. */
export async function openStream(url: string, headers: Record<string, string>): Promise<SseConnection> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const collector = createSseCollector();
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!res.body) return;
    try {
      for await (const chunk of res.body) collector.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // closed by the test
    }
  })();
  return { ...collector, status: res.status, headers: res.headers, ended, close: () => abort.abort() };
}
