import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { createTenantStore } from '../lib/auth/tenants.ts';
import { type EntityRecord, entityCreatedOps } from '../lib/catalog/entities/entity-items.ts';
import { isoTime, systemClock } from '../lib/platform/clock.ts';
import { newId } from '../lib/platform/ids.ts';
import { createSqliteTable, openSqliteDatabase } from '../lib/sqlite/sqlite-table.ts';
import { MAX_TRANSACTION_OPS, type WriteOp } from '../lib/store/table.ts';
import { call } from './push.ts';
import { buildConsole, chromiumPresent, removeConsole, timeFirstRows } from './search-console.ts';
import { loadServeEnv, startServe } from './serve.ts';
import { type Percentiles, percentiles } from './stats.ts';

/**
 * The status page of a large fleet: one tenant with `entities` entities (1 % down, 3 % degraded,
 * 2 % unknown, the rest up) stored straight into the local runtime's SQLite file, then seeded by
 * the status migration the runtime runs at startup (the path an upgraded installation takes).
 * Measures, over HTTP on 127.0.0.1, sequential GET /v1/status?state=down&limit=100 (the counts
 * plus the first page of down entities) beside the unpaged GET /v1/status as the baseline; then
 * gives each entity of the first page of the whole board a push check with RESULTS_PER_CHECK
 * results and measures that page with its recent-results strips (`&include=recent`, what the
 * console's status board asks for): a push check per row is the strip's dearest case (one query
 * per check; pull checks share one query per cell).
 */

const STRIP_PAGE = 100;
const RESULTS_PER_CHECK = 30;

export interface StatusFigures {
  entities: number;
  /** Seconds bin/serve.ts took to start, seeding the counters and index of every entity. */
  startupSeconds: number;
  paged: Percentiles;
  pagedBytes: number;
  unpaged: Percentiles;
  unpagedBytes: number;
  /** GET /v1/status?limit=100&include=recent, every row with a push check and its results. */
  strips: Percentiles;
  stripsBytes: number;
  /** ms from clicking "Status" to the board's first row in Chromium (absent without Chromium). */
  firstRows?: Percentiles;
}

/** A push check with RESULTS_PER_CHECK results for each entity of the board's first page. */
async function giveFirstPageChecks(url: string, key: string): Promise<void> {
  const page = (await call(url, key, 'GET', `/v1/status?limit=${STRIP_PAGE}`)) as {
    entities: { id: string }[];
  };
  let next = 0;
  const worker = async () => {
    while (next < page.entities.length) {
      const entity = page.entities[next++];
      if (!entity) return;
      const check = (await call(url, key, 'POST', '/v1/checks', {
        entity_id: entity.id,
        check_type: 'push',
        interval_seconds: 3600,
      })) as { id: string };
      for (let i = 0; i < RESULTS_PER_CHECK; i += 1) {
        await call(url, key, 'POST', `/v1/checks/${check.id}/results`, {
          success: i % 10 !== 9,
          latency_ms: 20,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

const BLUEPRINTS = 10;

function stateOf(i: number): EntityRecord['state'] {
  const r = i % 100;
  return r === 0 ? 'down' : r < 4 ? 'degraded' : r < 6 ? 'unknown' : 'up';
}

/**
 * Writes the entity items (and their id pointers, with the name and slug index entries) of one
 * tenant, as entity create does, minus the counters; entity i is `e-i` of blueprint `bp-(i % 10)`,
 * in state `state(i)`. The status and search benches seed through it.
 */
export async function seedEntities(
  dataDir: string,
  entities: number,
  state: (i: number) => EntityRecord['state'] = stateOf,
): Promise<void> {
  const table = createSqliteTable({ db: openSqliteDatabase(join(dataDir, 'vigil.db')), streamEntities: [] });
  try {
    const [tenant] = await createTenantStore(table, systemClock).listTenants();
    if (!tenant) throw new Error('the bootstrap tenant is missing');
    const at = isoTime(Date.now());
    let ops: WriteOp[] = [];
    for (let i = 0; i < entities; i += 1) {
      const bp = `bp-${i % BLUEPRINTS}`;
      const slug = `e-${i}`;
      const id = newId('ent', Date.now());
      const entity: EntityRecord = {
        id,
        blueprint_slug: bp,
        slug,
        name: `Entity ${i}`,
        fields: {},
        state: state(i),
        created_at: at,
        updated_at: at,
        version: 1,
      };
      ops.push(...entityCreatedOps(tenant.id, entity));
      if (ops.length >= MAX_TRANSACTION_OPS || i === entities - 1) {
        await table.transact(ops);
        ops = [];
      }
    }
    // As an installation from before the counters (no marker, no counter item): the next start seeds
    // them. The keys as stored (docs/data-model.md, Status): no write builder removes them.
    await table.transact([
      { type: 'delete', key: { pk: 'MIGRATION', sk: 'status-counters' } },
      { type: 'delete', key: { pk: `STATUS#${tenant.id}`, sk: 'COUNTS' } },
    ]);
  } finally {
    await table.close();
  }
}

/** Times `count` sequential GETs of `path` (after `warmup` unmeasured ones). */
async function timeGets(url: string, key: string, path: string, count: number, warmup: number) {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < warmup + count; i += 1) {
    const started = performance.now();
    const body = await call(url, key, 'GET', path);
    const ms = performance.now() - started;
    if (i >= warmup) samples.push(ms);
    bytes = JSON.stringify(body).length;
  }
  return { figures: percentiles(samples), bytes };
}

/** Runs the status scenario; the data dir is removed afterwards. */
export async function runStatus(options: {
  entities: number;
  requests: number;
  unpagedRequests: number;
  logFile: string;
  onProgress?: (line: string) => void;
}): Promise<StatusFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-status-'));
  const key = generateApiKey();
  const withChromium = chromiumPresent();
  const consoleDir = await buildConsole();
  const env = { ...loadServeEnv(dataDir, key), VIGIL_CONSOLE_DIR: consoleDir };
  try {
    const first = await startServe(env, { logFile: options.logFile });
    await first.stop();
    options.onProgress?.(`  seeding ${options.entities} entities`);
    await seedEntities(dataDir, options.entities);
    const started = performance.now();
    const serve = await startServe(env, { logFile: options.logFile, timeoutMs: 600_000 });
    const startupSeconds = Math.round((performance.now() - started) / 100) / 10;
    options.onProgress?.(`  started (seeding the counters and index) in ${startupSeconds} s`);
    try {
      const paged = await timeGets(serve.url, key, '/v1/status?state=down&limit=100', options.requests, 10);
      const unpaged = await timeGets(serve.url, key, '/v1/status', options.unpagedRequests, 1);
      options.onProgress?.(
        `  a push check with ${RESULTS_PER_CHECK} results for each of the first ${STRIP_PAGE} entities`,
      );
      await giveFirstPageChecks(serve.url, key);
      const strips = await timeGets(
        serve.url,
        key,
        `/v1/status?limit=${STRIP_PAGE}&include=recent`,
        options.requests,
        10,
      );
      const firstRows = withChromium
        ? await timeFirstRows(
            serve.url,
            key,
            {
              from: '/settings',
              link: 'Status',
              firstRow: (page) => page.locator('.status-group table tbody tr').first(),
            },
            10,
          )
        : undefined;
      return {
        ...(firstRows ? { firstRows } : {}),
        strips: strips.figures,
        stripsBytes: strips.bytes,
        entities: options.entities,
        startupSeconds,
        paged: paged.figures,
        pagedBytes: paged.bytes,
        unpaged: unpaged.figures,
        unpagedBytes: unpaged.bytes,
      };
    } finally {
      await serve.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    removeConsole(consoleDir);
  }
}
