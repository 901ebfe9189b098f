import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { createTenantStore } from '../lib/auth/tenants.ts';
import { definitionReplacedOp, getCheckDefinition } from '../lib/checks/check-items.ts';
import { checkDayOp } from '../lib/checks/items/day-rollup-items.ts';
import { rollupAddOp } from '../lib/checks/items/rollup-items.ts';
import { storedMemberRollup } from '../lib/domain/rollups/cell-rollup.ts';
import { bucketStartMs, ROLLUP_BUCKET_MS } from '../lib/domain/rollups/rollup-bucket.ts';
import { addToRollup, emptyRollup, mergeRollups, type Rollup } from '../lib/domain/rollups/sparkline.ts';
import { DAY_MS, dayStartMs, utcDate } from '../lib/domain/rollups/uptime.ts';
import { isoTime, systemClock } from '../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../lib/sqlite/sqlite-table.ts';
import { MAX_TRANSACTION_OPS, type WriteOp } from '../lib/store/table.ts';
import { call } from './push.ts';
import { loadServeEnv, startServe } from './serve.ts';
import { type Percentiles, percentiles } from './stats.ts';

/**
 * The uptime read of a 1-minute check with 90 days of history (lib/uptime): the check is made
 * through the API, then its history is written straight into the local runtime's SQLite file
 * through the owner modules, as the recorder leaves it: 89 closed days (`day_rollup`, 1,440
 * results each, a few failures) and the 5-minute rollups of yesterday and today, the check created 90 days back and a
 * tenant retention of 120 days. Measures, over HTTP on 127.0.0.1, sequential GET
 * /v1/checks/{id}/uptime?window=90d beside the console's sparkline read of the same check (GET
 * /v1/checks/{id}/sparkline?hours=24&buckets=48). Target: uptime p99 <= 50 ms.
 */

export interface UptimeFigures {
  days: number;
  requests: number;
  /** Items the history took: closed days plus yesterday's and today's 5-minute rollups. */
  items: number;
  /** Today's 5-minute buckets at the run (the uptime read folds them: it costs more late in a UTC day). */
  todayBuckets: number;
  uptime: Percentiles;
  sparkline: Percentiles;
}

const RESULTS_PER_BUCKET = 5;

/** A bucket of 1-minute results: latencies 20 to 60 ms, `failures` of them failed. */
function bucketRollup(failures: number, seed: number): Rollup {
  let r = emptyRollup();
  for (let i = 0; i < RESULTS_PER_BUCKET; i += 1) {
    r = addToRollup(r, { success: i >= failures, latency_ms: 20 + ((seed * 7 + i * 13) % 41) });
  }
  return r;
}

/** The stored form of today's buckets (rollupAddOp takes the current-bucket shape). */
function currentOf(startMs: number, r: Rollup) {
  const counts: Record<string, number> = {};
  for (const [i, n] of r.histogram.entries()) if (n > 0) counts[String(i)] = n;
  return {
    bucket_start: isoTime(startMs),
    total: r.total,
    failures: r.failures,
    latency_sum: r.latency_sum,
    counts,
  };
}

/** A closed day: 288 buckets, one failing result every `failEvery` buckets. */
function dayRollup(day: number, failEvery: number): Rollup {
  const buckets = Array.from({ length: DAY_MS / ROLLUP_BUCKET_MS }, (_, b) =>
    bucketRollup(b % failEvery === 0 ? 1 : 0, day * 288 + b),
  );
  return mergeRollups(buckets);
}

async function seedHistory(dataDir: string, checkId: string, days: number) {
  const table = createSqliteTable({ db: openSqliteDatabase(join(dataDir, 'vigil.db')), streamEntities: [] });
  try {
    const store = createTenantStore(table, systemClock);
    const [tenant] = await store.listTenants();
    if (!tenant) throw new Error('the bootstrap tenant is missing');
    const retentionDays = days + 30;
    await store.setLimits(tenant.id, { retention_days: retentionDays });
    const definition = await getCheckDefinition(table, tenant.id, checkId, { consistent: true });
    if (!definition) throw new Error(`check ${checkId} is missing`);
    const nowMs = Date.now();
    const today = dayStartMs(nowMs);
    await table.transact([
      definitionReplacedOp(
        { ...definition, created_at: isoTime(today - (days - 1) * DAY_MS) },
        definition.version,
      ),
    ]);
    const ops: WriteOp[] = [];
    for (let d = days - 1; d >= 1; d -= 1) {
      const rollup = storedMemberRollup(dayRollup(d, d % 10 === 0 ? 6 : 48));
      ops.push(checkDayOp({ check_id: checkId, date: utcDate(today - d * DAY_MS), rollup }, retentionDays));
    }
    // The 5-minute rollups of yesterday (the sparkline's 24 h read them; the day item stands for
    // them in the uptime read) and today's finished buckets (the current one is the check's state).
    for (let b = today - DAY_MS; b < bucketStartMs(nowMs) - ROLLUP_BUCKET_MS; b += ROLLUP_BUCKET_MS) {
      ops.push(rollupAddOp(checkId, currentOf(b, bucketRollup(b % 7 === 0 ? 1 : 0, b)), retentionDays));
    }
    for (let i = 0; i < ops.length; i += MAX_TRANSACTION_OPS) {
      await table.transact(ops.slice(i, i + MAX_TRANSACTION_OPS));
    }
    return { items: ops.length, todayBuckets: Math.round((nowMs - today) / ROLLUP_BUCKET_MS) };
  } finally {
    await table.close();
  }
}

/** Times `count` sequential GETs of `path` after `warmup` unmeasured ones. */
async function timeGets(url: string, key: string, path: string, count: number, warmup: number) {
  const samples: number[] = [];
  for (let i = 0; i < warmup + count; i += 1) {
    const started = performance.now();
    await call(url, key, 'GET', path);
    if (i >= warmup) samples.push(performance.now() - started);
  }
  return percentiles(samples);
}

export async function runUptime(options: {
  days: number;
  requests: number;
  logFile: string;
  onProgress?: (line: string) => void;
}): Promise<UptimeFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-uptime-'));
  const key = generateApiKey();
  const env = loadServeEnv(dataDir, key);
  try {
    const first = await startServe(env, { logFile: options.logFile });
    let checkId: string;
    try {
      const api = (method: string, path: string, body?: unknown) => call(first.url, key, method, path, body);
      await api('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
      const entity = (await api('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'API' })) as {
        id: string;
      };
      const check = (await api('POST', '/v1/checks', {
        entity_id: entity.id,
        check_type: 'push',
        interval_seconds: 60,
        slo_target: 0.999,
      })) as { id: string };
      checkId = check.id;
      await api('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 30 });
    } finally {
      await first.stop();
    }
    const { items, todayBuckets } = await seedHistory(dataDir, checkId, options.days);
    options.onProgress?.(
      `  ${items} items of history (${options.days - 1} closed days, yesterday's and today's ${todayBuckets} 5-minute rollups)`,
    );
    const serve = await startServe(env, { logFile: options.logFile });
    try {
      const answer = (await call(serve.url, key, 'GET', `/v1/checks/${checkId}/uptime?window=90d`)) as {
        results: number;
        uptime_ratio: number;
        latency_ms: { p99: number };
      };
      options.onProgress?.(
        `  90d: ${answer.results} results, uptime ${answer.uptime_ratio}, p99 latency ${answer.latency_ms.p99} ms`,
      );
      const uptime = await timeGets(
        serve.url,
        key,
        `/v1/checks/${checkId}/uptime?window=90d`,
        options.requests,
        10,
      );
      const sparkline = await timeGets(
        serve.url,
        key,
        `/v1/checks/${checkId}/sparkline?hours=24&buckets=48`,
        options.requests,
        10,
      );
      return { days: options.days, requests: options.requests, items, todayBuckets, uptime, sparkline };
    } finally {
      await serve.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
