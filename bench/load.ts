import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createSamples, type Percentiles } from './stats.ts';

/** A closed-loop HTTP load generator: `concurrency` workers on keep-alive connections, bounded by time and count. */

export interface LoadOptions {
  /** Base URL (http://127.0.0.1:port). */
  url: string;
  /** Request paths, used round-robin. */
  paths: string[];
  headers: Record<string, string>;
  body: string;
  concurrency: number;
  durationMs: number;
  maxRequests: number;
  /** The status that counts as acknowledged. */
  okStatus: number;
}

export interface LoadFigures {
  concurrency: number;
  requestsPerSecond: number;
  /** Requests answered with `okStatus`. */
  acknowledged: number;
  failed: number;
  /** Status codes other than `okStatus` (and `error` for transport failures), counted. */
  otherStatuses: Record<string, number>;
  latencyMs: Percentiles;
  elapsedMs: number;
}

function send(agent: Agent, url: URL, path: string, options: LoadOptions): Promise<number | 'error'> {
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve('error'));
      },
    );
    req.on('error', () => resolve('error'));
    req.end(options.body);
  });
}

/** Runs the load and returns its figures (throughput counts acknowledged requests only). */
export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  const url = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latency = createSamples();
  const otherStatuses: Record<string, number> = {};
  let acknowledged = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const worker = async () => {
    while (performance.now() < deadline && issued < options.maxRequests) {
      const path = options.paths[issued % options.paths.length] ?? '/';
      issued += 1;
      const t0 = performance.now();
      const status = await send(agent, url, path, options);
      latency.add(performance.now() - t0);
      if (status === options.okStatus) acknowledged += 1;
      else otherStatuses[String(status)] = (otherStatuses[String(status)] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return {
    concurrency: options.concurrency,
    requestsPerSecond: (acknowledged * 1000) / elapsedMs,
    acknowledged,
    failed: issued - acknowledged,
    otherStatuses,
    latencyMs: latency.summary(),
    elapsedMs,
  };
}
