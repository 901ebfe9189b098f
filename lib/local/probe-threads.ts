import { setImmediate } from 'node:timers';
import type { Worker } from 'node:worker_threads';
import type { ProbeAnswer, ProbeRequest } from '../check-types/probe-thread.ts';
import { startModuleWorker } from '../platform/module-worker.ts';
import type { ProbeDefinition, Probed, ProbeHttpClient, Prober } from '../probes/types.ts';

export interface ProbeThreadsOptions {
  threads: number;
  allowPrivate: boolean;
  tlsCa?: string[];
  httpClient?: ProbeHttpClient;
  /** The browser runs the threads may have going at once, shared out between them, and the Chromium they start. */
  browser?: { runs: number; chromiumPath: string };
  /** Starts one probe thread (tests wrap it); default: lib/check-types/probe-thread.ts on a worker. */
  startWorker?: (name: string, workerData: unknown) => Worker;
}

export interface ProbeThreads {
  prober: Prober;
  /** Probes sent and not answered yet. */
  readonly inFlight: number;
  /** Stops the threads; probes still out are answered as failed ("probe thread stopped"). */
  close(): Promise<void>;
}

interface Thread {
  name: string;
  worker: Worker;
  outbox: ProbeRequest[];
  waiting: Map<number, (probed: Probed) => void>;
}

const PROBE_THREAD = new URL('../check-types/probe-thread.ts', import.meta.url);
/** Probe threads are named `vigil-probe-<n>` (their workers and their OS threads). */
export const PROBE_THREAD_PREFIX = 'vigil-probe-';

/**
 * Probe threads for the local runtime: the probes' own work (connect, TLS, HTTP parsing, close)
 * leaves the event loop, which keeps scheduling, recording and serving the API. Each probe goes to
 * the thread with the fewest probes out; requests are sent once per turn per thread. A thread
 * that dies answers its probes as failed and is replaced at once.
 */
export function startProbeThreads(options: ProbeThreadsOptions): ProbeThreads {
  let nextId = 1;
  let closed = false;
  const workerData = {
    allowPrivate: options.allowPrivate,
    ...(options.tlsCa ? { tlsCa: options.tlsCa } : {}),
    ...(options.httpClient ? { httpClient: options.httpClient } : {}),
    ...(options.browser
      ? {
          browser: {
            // Each thread keeps its own pool: their sum is the setting (at least one run per thread).
            runs: Math.max(1, Math.floor(options.browser.runs / Math.max(1, options.threads))),
            chromiumPath: options.browser.chromiumPath,
          },
        }
      : {}),
  };
  const startWorker =
    options.startWorker ??
    ((name: string, data: unknown) => startModuleWorker(PROBE_THREAD, { name, workerData: data }));
  const failedAt = (message: string): Probed => ({
    outcome: { success: false, status_code: 0, latency_ms: 0, error_message: message },
    startedMs: Date.now(),
  });

  /** Listens to the thread's worker; when it ends (not at close), a new worker takes its place. */
  const watch = (thread: Thread) => {
    const { worker } = thread;
    worker.unref();
    let ended = false;
    const end = (message: string) => {
      if (ended) return;
      ended = true;
      for (const resolve of thread.waiting.values()) resolve(failedAt(message));
      thread.waiting.clear();
      thread.outbox = [];
      if (closed) return;
      thread.worker = startWorker(thread.name, workerData);
      watch(thread);
    };
    worker.on('message', (answers: ProbeAnswer[]) => {
      for (const { id, outcome, startedMs } of answers) {
        const resolve = thread.waiting.get(id);
        thread.waiting.delete(id);
        resolve?.({ outcome, startedMs });
      }
      if (thread.waiting.size === 0) worker.unref();
    });
    worker.on('error', (error) => end(`probe thread failed: ${error.message}`));
    worker.on('exit', () => end('probe thread stopped'));
  };

  const threads: Thread[] = Array.from({ length: Math.max(1, options.threads) }, (_, i) => {
    const name = `${PROBE_THREAD_PREFIX}${i + 1}`;
    const thread: Thread = { name, worker: startWorker(name, workerData), outbox: [], waiting: new Map() };
    watch(thread);
    return thread;
  });

  const send = (thread: Thread) => {
    const batch = thread.outbox;
    thread.outbox = [];
    if (batch.length > 0) thread.worker.postMessage(batch);
  };

  const prober: Prober = (def: ProbeDefinition) => {
    if (closed) return Promise.resolve(failedAt('probe thread stopped'));
    const thread = threads.reduce((a, b) =>
      b.waiting.size + b.outbox.length < a.waiting.size + a.outbox.length ? b : a,
    );
    const id = nextId++;
    return new Promise<Probed>((resolve) => {
      if (thread.waiting.size === 0) thread.worker.ref();
      thread.waiting.set(id, resolve);
      if (thread.outbox.length === 0) setImmediate(() => send(thread));
      thread.outbox.push({ id, def });
    });
  };

  return {
    prober,
    get inFlight() {
      return threads.reduce((sum, t) => sum + t.waiting.size, 0);
    },
    async close() {
      closed = true;
      await Promise.all(
        threads.map((t) => {
          t.worker.ref(); // until it has exited: an unreferenced worker would let the process end first
          return t.worker.terminate();
        }),
      );
    },
  };
}
