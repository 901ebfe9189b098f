import type { Logger } from '../../platform/logger.ts';

/** Server-Sent Events (the WHATWG `text/event-stream` format) as a web-standard stream body. */

/** Response headers of an event stream; `x-accel-buffering` keeps nginx-style proxies from holding it. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/** One frame. A frame with an `id` and no `data` moves the client's Last-Event-ID without an event. */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  /** The client's reconnection delay in milliseconds. */
  retry?: number;
}

/** The text of one frame (a multi-line `data` becomes several `data:` lines, as the format requires). */
function formatSse(frame: SseFrame): string {
  let text = '';
  if (frame.event !== undefined) text += `event: ${frame.event}\n`;
  if (frame.id !== undefined) text += `id: ${frame.id}\n`;
  if (frame.retry !== undefined) text += `retry: ${frame.retry}\n`;
  if (frame.data !== undefined) for (const line of frame.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** What a stream's producer writes to. */
export interface SseSink {
  send(frame: SseFrame): void;
  /** Resolves once the reader has taken what is queued (a long replay waits on a slow client). */
  ready(): Promise<void>;
  /** Aborted when the reader cancels (the client went away, the server is stopping). */
  signal: AbortSignal;
}

export interface SseStreamOptions {
  /** A `: keep-alive` comment this often, so proxies and clients see the connection is alive. */
  heartbeatMs: number;
  logger: Logger;
}

const KEEP_ALIVE = ': keep-alive\n\n';
const QUEUED_FRAMES = 64;

/**
 * An event stream that `produce` writes to; the stream ends when `produce` settles and a cancel by
 * the reader aborts `sink.signal`. A producer failure after the head was sent can only end the
 * stream (the status is out), so it is logged and the stream closed.
 */
export function sseStream(
  produce: (sink: SseSink) => Promise<void>,
  options: SseStreamOptions,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  let heartbeat: NodeJS.Timeout | undefined;
  let waiting: (() => void) | undefined;
  let closed = false;

  const release = () => {
    const wake = waiting;
    waiting = undefined;
    wake?.();
  };
  const shut = () => {
    closed = true;
    clearInterval(heartbeat);
    abort.abort();
    release();
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const enqueue = (text: string) => {
          if (!closed) controller.enqueue(encoder.encode(text));
        };
        const finish = () => {
          if (closed) return;
          shut();
          controller.close();
        };
        heartbeat = setInterval(() => enqueue(KEEP_ALIVE), options.heartbeatMs);
        const sink: SseSink = {
          send: (frame) => enqueue(formatSse(frame)),
          ready: () =>
            closed || (controller.desiredSize ?? 1) > 0
              ? Promise.resolve()
              : new Promise<void>((resolve) => {
                  waiting = resolve;
                }),
          signal: abort.signal,
        };
        // Not awaited: start() must return for the head to go out while the producer runs.
        produce(sink).then(finish, (err: unknown) => {
          options.logger.error('event stream failed', { err });
          finish();
        });
      },
      pull: release,
      cancel: shut,
    },
    { highWaterMark: QUEUED_FRAMES },
  );
}

/** Resolves when `signal` aborts (a live stream's producer waits on it). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
