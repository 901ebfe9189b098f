import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { call } from './push.ts';
import { buildConsole, chromiumPresent, removeConsole, timeFirstRows } from './search-console.ts';
import { loadServeEnv, startServe } from './serve.ts';
import { type Percentiles, percentiles } from './stats.ts';

/**
 * The checks list of a large account: `checks` push checks (nothing is probed) on entities of 10
 * blueprints, 10 per entity, made through the API of a served runtime; every 100th has gone down,
 * and the first 100 carry 30 results each (the strips of the first page). Measures, over HTTP on
 * 127.0.0.1, sequential first pages of GET /v1/checks: unfiltered, with include=recent (what the
 * console asks), and filtered by state (1 % match: the bounded scan), blueprint and text; then,
 * when Chromium is installed, the console's first rows of /checks after navigation.
 */

export interface ChecksListFigures {
  checks: number;
  seedSeconds: number;
  requests: { path: string; latency: Percentiles; rows: number; bytes: number }[];
  /** ms from navigation to the first row of /checks in Chromium (absent without Chromium). */
  firstRows?: Percentiles;
}

const BLUEPRINTS = 10;
const PER_ENTITY = 10;
const RECENT = 30;

/** Runs `make` over `items`, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, make: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(make));
}

async function seed(url: string, key: string, checks: number): Promise<void> {
  for (let b = 0; b < BLUEPRINTS; b += 1) {
    await call(url, key, 'POST', '/v1/blueprints', { slug: `bp-${b}`, name: `Blueprint ${b}` });
  }
  const entityCount = Math.ceil(checks / PER_ENTITY);
  const entities: string[] = [];
  await inBatches(
    Array.from({ length: entityCount }, (_, i) => i),
    16,
    async (i) => {
      const made = (await call(url, key, 'POST', `/v1/blueprints/bp-${i % BLUEPRINTS}/entities`, {
        slug: `e-${i}`,
        name: `Entity ${i}`,
      })) as { id: string };
      entities[i] = made.id;
    },
  );
  const ids: string[] = [];
  await inBatches(
    Array.from({ length: checks }, (_, i) => i),
    16,
    async (i) => {
      const made = (await call(url, key, 'POST', '/v1/checks', {
        entity_id: entities[Math.floor(i / PER_ENTITY)],
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
        name: `Check ${i}`,
      })) as { id: string };
      ids[i] = made.id;
    },
  );
  const now = Date.now();
  const report = (id: string, success: boolean, atMs: number) =>
    call(url, key, 'POST', `/v1/checks/${id}/results`, {
      success,
      latency_ms: 20,
      checked_at: new Date(atMs).toISOString(),
    });
  // The first page's checks: 30 results each, one a minute, the 10th failed and recovered.
  const listed = (await call(url, key, 'GET', '/v1/checks?limit=100')) as { id: string }[];
  await inBatches(listed, 16, async ({ id }) => {
    for (let r = 0; r < RECENT; r += 1) await report(id, r !== 9, now - (RECENT - r) * 60_000);
  });
  await inBatches(
    ids.filter((_, i) => i % 100 === 99),
    16,
    async (id) => {
      await report(id, false, now - 1000);
    },
  );
}

/** Times `count` sequential GETs of `path` (after `warmup` unmeasured ones). */
async function timeGets(url: string, key: string, path: string, count: number, warmup: number) {
  const samples: number[] = [];
  let bytes = 0;
  let rows = 0;
  for (let i = 0; i < warmup + count; i += 1) {
    const started = performance.now();
    const body = await call(url, key, 'GET', path);
    const ms = performance.now() - started;
    if (i >= warmup) samples.push(ms);
    bytes = JSON.stringify(body).length;
    rows = Array.isArray(body) ? body.length : 0;
  }
  return { path, latency: percentiles(samples), rows, bytes };
}

/** Runs the checks list scenario; the data dir and the built console are removed afterwards. */
export async function runChecksList(options: {
  checks: number;
  requests: number;
  logFile: string;
  onProgress?: (line: string) => void;
}): Promise<ChecksListFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-checks-'));
  const key = generateApiKey();
  const withChromium = chromiumPresent();
  const consoleDir = await buildConsole();
  try {
    const env = { ...loadServeEnv(dataDir, key), VIGIL_LOG_LEVEL: 'warn', VIGIL_CONSOLE_DIR: consoleDir };
    const serve = await startServe(env, { logFile: options.logFile, timeoutMs: 120_000 });
    try {
      options.onProgress?.(`  seeding ${options.checks} checks through the API`);
      const started = performance.now();
      await seed(serve.url, key, options.checks);
      const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
      const paths = [
        '/v1/checks?limit=100',
        '/v1/checks?limit=100&include=recent',
        '/v1/checks?limit=100&state=down&include=recent',
        '/v1/checks?limit=100&blueprint=bp-3&include=recent',
        '/v1/checks?limit=100&q=check%209999&include=recent',
      ];
      const requests = [];
      for (const path of paths) requests.push(await timeGets(serve.url, key, path, options.requests, 3));
      const figures: ChecksListFigures = { checks: options.checks, seedSeconds, requests };
      if (withChromium) {
        figures.firstRows = await timeFirstRows(
          serve.url,
          key,
          {
            from: '/status',
            link: 'Checks',
            firstRow: (page) => page.getByRole('table', { name: 'Checks' }).locator('tbody tr').first(),
          },
          10,
        );
      }
      return figures;
    } finally {
      await serve.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    removeConsole(consoleDir);
  }
}
