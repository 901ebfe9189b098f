import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { startChild } from './child.ts';
import { type LoadFigures, runLoad } from './load.ts';
import { loadServeEnv, processUsage, startServe } from './serve.ts';

/**
 * Push ingestion: the product over real HTTP (bin/serve.ts in a child, its own data dir) takes
 * POST /v1/checks/{id}/results at several concurrencies, side by side with a bare node:http
 * server answering 201 to the same load. Ends by counting the stored results through the API.
 */

interface PushLevel {
  concurrency: number;
  vigil: LoadFigures & { serverCpuCores: number; serverRssMb: number };
  bare: LoadFigures;
  /** vigil results/s over bare requests/s. */
  ratio: number;
}

export interface PushFigures {
  checks: number;
  levels: PushLevel[];
  acknowledged: number;
  stored: number;
  verified: boolean;
}

const idSchema = z.object({ id: z.string() });
const resultsPage = z.object({ results: z.array(z.unknown()), next_cursor: z.string().nullable() });

/** One API call with the key; throws on any status of 300 or more, answers the parsed JSON. */
export async function call(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Every stored result of the checks, paged through GET /v1/checks/{id}/results. */
async function countStored(url: string, key: string, checkIds: string[]): Promise<number> {
  let total = 0;
  for (const id of checkIds) {
    let cursor: string | null = null;
    for (let page = 0; page < 100_000; page += 1) {
      const query: string = `limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const read = resultsPage.parse(await call(url, key, 'GET', `/v1/checks/${id}/results?${query}`));
      total += read.results.length;
      cursor = read.next_cursor;
      if (!cursor) break;
    }
  }
  return total;
}

export async function runPush(options: {
  checks: number;
  concurrencies: number[];
  durationMs: number;
  warmupMs: number;
  maxRequests: number;
  logFile: string;
  nodeFlags?: string[];
  /** The checkout whose bin/serve.ts takes the load (--against); default this one. */
  root?: string;
  onProgress?: (line: string) => void;
}): Promise<PushFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-push-'));
  const key = generateApiKey();
  const serve = await startServe(loadServeEnv(dataDir, key), {
    logFile: options.logFile,
    ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
    ...(options.root ? { root: options.root } : {}),
  });
  const bare = startChild('bare-server.ts', { logFile: options.logFile });
  try {
    const bareUrl = (await bare.next('ready', z.object({ url: z.string() }))).url;
    await call(serve.url, key, 'POST', '/v1/blueprints', { slug: 'agents', name: 'Agents' });
    const entity = idSchema.parse(
      await call(serve.url, key, 'POST', '/v1/blueprints/agents/entities', { slug: 'fleet', name: 'Fleet' }),
    );
    const checkIds: string[] = [];
    for (let i = 0; i < options.checks; i += 1) {
      const check = idSchema.parse(
        await call(serve.url, key, 'POST', '/v1/checks', {
          entity_id: entity.id,
          check_type: 'push',
          interval_seconds: 300,
        }),
      );
      checkIds.push(check.id);
    }
    const paths = checkIds.map((id) => `/v1/checks/${id}/results`);
    const body = JSON.stringify({ success: true, latency_ms: 42, status_code: 200 });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const load = (url: string, concurrency: number, durationMs: number) =>
      runLoad({
        url,
        paths,
        headers,
        body,
        concurrency,
        durationMs,
        maxRequests: options.maxRequests,
        okStatus: 201,
      });

    let acknowledged = 0;
    const levels: PushLevel[] = [];
    for (const concurrency of options.concurrencies) {
      acknowledged += (await load(serve.url, concurrency, options.warmupMs)).acknowledged;
      const before = processUsage(serve.child.pid);
      const vigil = await load(serve.url, concurrency, options.durationMs);
      const after = processUsage(serve.child.pid);
      acknowledged += vigil.acknowledged;
      await load(bareUrl, concurrency, options.warmupMs);
      const bareFigures = await load(bareUrl, concurrency, options.durationMs);
      const level: PushLevel = {
        concurrency,
        vigil: {
          ...vigil,
          serverCpuCores:
            before && after ? (after.cpuSeconds - before.cpuSeconds) / (vigil.elapsedMs / 1000) : Number.NaN,
          serverRssMb: after?.rssMb ?? Number.NaN,
        },
        bare: bareFigures,
        ratio: vigil.requestsPerSecond / Math.max(1, bareFigures.requestsPerSecond),
      };
      levels.push(level);
      options.onProgress?.(
        `push c=${concurrency}: ${Math.round(vigil.requestsPerSecond)} results/s (bare ${Math.round(bareFigures.requestsPerSecond)} req/s)`,
      );
    }
    const stored = await countStored(serve.url, key, checkIds);
    return { checks: checkIds.length, levels, acknowledged, stored, verified: stored === acknowledged };
  } finally {
    await bare.stop();
    await serve.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
