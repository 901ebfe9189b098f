import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { call } from './push.ts';
import { buildConsole, chromiumPresent, removeConsole, timeFirstResults } from './search-console.ts';
import { loadServeEnv, startServe } from './serve.ts';
import { type Percentiles, percentiles } from './stats.ts';
import { seedEntities } from './status.ts';

/**
 * The global search of a large account: one tenant with `entities` entities stored straight into
 * the local runtime's SQLite file (10 blueprints), then, through the API, `checks` push checks
 * (nothing is probed), 10 shared channels, 5 status pages and 50 open incidents. Measures, over
 * HTTP on 127.0.0.1, sequential GET /v1/search for texts that find many, one and nothing (the
 * last reads every kind to its bound), and the console's entity picker (kind=entity).
 */

interface SearchQueryFigures {
  /** The query string after /v1/search? */
  query: string;
  what: string;
  results: number;
  latency: Percentiles;
}

export interface SearchFigures {
  entities: number;
  checks: number;
  queries: SearchQueryFigures[];
  /** The console: ms from the last typed character to the first result shown (Chromium); absent without one. */
  console?: Percentiles;
}

const INCIDENTS = 50;

/** Runs `each` over `items`, `concurrency` at a time. */
async function inParallel<T>(items: T[], concurrency: number, each: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await each(item);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The checks, channels, status pages and incidents, through the API. */
async function seedThroughApi(url: string, key: string, checks: number): Promise<void> {
  const page = (await call(url, key, 'GET', `/v1/status?limit=${Math.min(1000, checks)}`)) as {
    entities: { id: string }[];
  };
  const ids = [...page.entities.map((e) => e.id)];
  // More checks than the first status page: two checks per entity (the page holds at most 1,000).
  const targets = Array.from({ length: checks }, (_, i) => ({ entity: ids[i % ids.length] ?? '', i }));
  const checkIds: string[] = [];
  await inParallel(targets, 16, async ({ entity, i }) => {
    const check = (await call(url, key, 'POST', '/v1/checks', {
      entity_id: entity,
      check_type: 'push',
      name: `Heartbeat ${i}`,
      interval_seconds: 3600,
      failure_threshold: 1,
    })) as { id: string };
    checkIds.push(check.id);
  });
  for (let i = 0; i < 10; i += 1)
    await call(url, key, 'POST', '/v1/notify/channels', {
      name: `On-call ${i}`,
      channel_type: 'nats',
      config: { subject: `alerts.${i}` },
    });
  for (let i = 0; i < 5; i += 1)
    await call(url, key, 'POST', '/v1/status-pages', {
      slug: `page-${i}`,
      title: `Public page ${i}`,
      entity_ids: ids.slice(i * 10, i * 10 + 10),
    });
  // Incidents: an entity up, then down (threshold 1) opens one.
  await inParallel(checkIds.slice(0, INCIDENTS), 8, async (id) => {
    for (const success of [true, false])
      await call(url, key, 'POST', `/v1/checks/${id}/results`, { success, latency_ms: 5 });
  });
}

const QUERIES = [
  { query: 'q=entity%2042', what: 'entities by name prefix (many), their checks and incidents' },
  { query: 'q=entity%209999', what: 'one entity' },
  { query: 'q=heartbeat%201', what: 'checks by name (bounded scan)' },
  { query: 'q=no-such-thing', what: 'nothing: every kind read to its bound' },
  { query: 'q=entity%205&kind=entity&limit=10', what: 'the entity picker (kind=entity)' },
];

/** Times `count` sequential GETs of `path` (after `warmup` unmeasured ones); answers the figures and the last answer's size. */
async function timeSearch(url: string, key: string, path: string, count: number, warmup: number) {
  const samples: number[] = [];
  let results = 0;
  for (let i = 0; i < warmup + count; i += 1) {
    const started = performance.now();
    const body = (await call(url, key, 'GET', path)) as { results: unknown[] };
    const ms = performance.now() - started;
    if (i >= warmup) samples.push(ms);
    results = body.results.length;
  }
  return { latency: percentiles(samples), results };
}

/** Runs the search scenario; the data dir is removed afterwards. */
export async function runSearch(options: {
  entities: number;
  checks: number;
  requests: number;
  logFile: string;
  onProgress?: (line: string) => void;
}): Promise<SearchFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-search-'));
  const key = generateApiKey();
  const consoleDir = chromiumPresent() ? await buildConsole() : undefined;
  const env = { ...loadServeEnv(dataDir, key), ...(consoleDir ? { VIGIL_CONSOLE_DIR: consoleDir } : {}) };
  try {
    const first = await startServe(env, { logFile: options.logFile });
    await first.stop();
    options.onProgress?.(`  seeding ${options.entities} entities`);
    await seedEntities(dataDir, options.entities, () => 'unknown');
    const serve = await startServe(env, { logFile: options.logFile, timeoutMs: 600_000 });
    try {
      options.onProgress?.(
        `  seeding ${options.checks} checks, channels, status pages, ${INCIDENTS} incidents`,
      );
      await seedThroughApi(serve.url, key, options.checks);
      const queries: SearchQueryFigures[] = [];
      for (const q of QUERIES) {
        const timed = await timeSearch(serve.url, key, `/v1/search?${q.query}`, options.requests, 5);
        queries.push({ ...q, ...timed });
        options.onProgress?.(
          `  ${q.query}: ${timed.results} results, p50 ${Math.round(timed.latency.p50)} ms, p95 ${Math.round(timed.latency.p95)} ms`,
        );
      }
      // Texts not typed before (the console keeps an answer for 15 s): entity numbers spread over the fleet.
      const texts = Array.from({ length: 20 }, (_, i) => `entity ${(i * 487 + 13) % options.entities}`);
      const shown = consoleDir ? await timeFirstResults(serve.url, key, texts) : undefined;
      if (shown)
        options.onProgress?.(
          `  console: first result p50 ${Math.round(shown.p50)} ms, p95 ${Math.round(shown.p95)} ms`,
        );
      return {
        entities: options.entities,
        checks: options.checks,
        queries,
        ...(shown ? { console: shown } : {}),
      };
    } finally {
      await serve.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (consoleDir) removeConsole(consoleDir);
  }
}
