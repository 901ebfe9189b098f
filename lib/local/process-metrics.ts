import { isIP } from 'node:net';
import { Gauge, Histogram } from 'prom-client';
import type { HttpRequest, HttpResponse } from '../http/types.ts';
import { processRegistry } from '../platform/process-registry.ts';

/**
 * The local process's own metrics at GET /metrics (docs/metrics.md): prom-client's default
 * metrics (event-loop lag, heap, GC, handles), the depth of the local job queues and the SQLite
 * group commit's latency. Nothing of any tenant: those are GET /v1/metrics, behind a key. Only
 * loopback peers are answered unless VIGIL_METRICS_OPEN is set; other addresses get a 404, as if
 * the path did not exist. The cloud has none of this (its functions write CloudWatch EMF metrics).
 */

const PROCESS_METRICS_PATH = '/metrics';

/** A job queue whose held jobs are counted. */
export interface CountedQueue {
  name: string;
  depth(): number;
}

export interface ProcessMetricsOptions {
  /** Answer any address (VIGIL_METRICS_OPEN); default loopback only. */
  open: boolean;
}

/** Whether `address` is this machine (127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** The registry of this process and the hooks that feed it. */
export function createProcessMetrics(options: ProcessMetricsOptions) {
  const registry = processRegistry();
  const queues: CountedQueue[] = [];
  new Gauge({
    name: 'vigil_local_queue_jobs',
    help: 'Jobs the local queue holds: waiting for their time or being run',
    labelNames: ['queue'] as const,
    registers: [registry],
    collect() {
      for (const queue of queues) this.set({ queue: queue.name }, queue.depth());
    },
  });
  const commits = new Histogram({
    name: 'vigil_local_sqlite_commit_seconds',
    help: 'SQLite group commits, from their send to the writer thread to its answer',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  return {
    registry,

    /** Counts the queues' depth at every scrape. */
    watchQueues(...more: CountedQueue[]): void {
      queues.push(...more);
    },

    /** One group commit took `ms` (sqlite-table's observeCommit). */
    observeCommit(ms: number): void {
      commits.observe(ms / 1000);
    },

    /** The answer to GET /metrics, or undefined for any other request (the router's). */
    async answer(req: HttpRequest): Promise<HttpResponse | undefined> {
      if (req.path !== PROCESS_METRICS_PATH) return undefined;
      if (!options.open && !isLoopback(req.sourceIp)) {
        return {
          status: 404,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ error: 'not found', code: 'NOT_FOUND' }),
        };
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return {
          status: 405,
          headers: { 'content-type': 'application/json', allow: 'GET, HEAD' },
          body: JSON.stringify({ error: 'method not allowed', code: 'METHOD_NOT_ALLOWED' }),
        };
      }
      return {
        status: 200,
        headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
        body: await registry.metrics(),
      };
    },
  };
}
