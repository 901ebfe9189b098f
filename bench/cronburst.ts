import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { createApiHandler, createPingHandler } from '../lib/cloud/http-composition.ts';
import { DUE_SUB_KEYS } from '../lib/domain/schedules.ts';
import { checkPartition } from '../lib/store/partitions.ts';
import { apiFunctionClient } from '../test/support/api-function-client.ts';
import { startDynamoDbLocal } from '../test/support/dynamodb-local.ts';
import { withMeteredPipeline } from '../test/support/metered-pipeline.ts';
import { startChild } from './child.ts';
import { table } from './markdown.ts';
import { call } from './push.ts';
import { processUsage } from './serve.ts';
import { type Percentiles, percentiles, round } from './stats.ts';

/**
 * `--only cronburst` (issue 78 point 5, the top of the hour): heartbeats of one tenant, created
 * with the scheduler off, each pinging once in the same second: `/start`, then its success 1–30 s
 * later. The product's clock is a fake one the bench moves (no real waiting): every start arrives
 * in the same second of it, then the successes in 30 steps of one second (job i ends (i mod 30) + 1
 * s after its start). Locally: bin/serve.ts's runtime in a child (bench/cronburst-child.ts) at the
 * default rate limits, pinged over HTTP on 127.0.0.1, `concurrency` in flight; every answer and its
 * latency (real time) counted, then every check's runs read back through the API. In the cloud: the
 * same burst through the ping function's handler over DynamoDB Local under the cost meter, with the
 * write units per partition key in the burst's second, projected to 100,000 jobs.
 */

interface WaveFigures {
  pings: number;
  statuses: Record<string, number>;
  latencyMs: Percentiles;
  /** Real seconds the wave took to be answered. */
  seconds: number;
}

export interface CronBurstLocal {
  jobs: number;
  concurrency: number;
  seedSeconds: number;
  starts: WaveFigures;
  successes: WaveFigures;
  /** Pings answered 429, both waves. */
  refused: number;
  /** Runs read back with a start, an end and a success outcome. */
  runsFormed: number;
  /** Those timed as their pings were sent: (i mod 30) + 1 s. */
  runsTimedRight: number;
  /** Server CPU seconds over both waves, per ping (µs). */
  cpuMicrosPerPing: number | undefined;
}

export interface CronBurstCloud {
  jobs: number;
  starts: Record<string, number>;
  successes: Record<string, number>;
  runsFormed: number;
  /**
   * The keys (the table's, and each index's as `<index>:<pk>`) that take the most write units in
   * the starts' second at 100,000 jobs, by their projection, hottest first.
   */
  hottest: BurstKey[];
  /**
   * The due index (gsi2 `DUE#<shard>#<nn>`, each shard's DUE_SUB_KEYS sub-keys): its shard count, its
   * partition keys (shards × sub-keys), all their units, and each key's mean at 100,000 jobs.
   */
  dueIndex: { shards: number; keys: number; wcu: number; projectedPerKey: number };
  /** The same for the successes' 30 seconds, a shared key's units as their mean per second. */
  successesHottest: BurstKey[];
  successesDueIndex: CronBurstCloud['dueIndex'];
  seconds: number;
}

export interface CronBurstFigures {
  local: CronBurstLocal;
  cloud?: CronBurstCloud;
}

/** A partition key's write units in the starts' second, and their projection to PROJECTED_JOBS. */
interface BurstKey {
  pk: string;
  wcu: number;
  /** A check's own partition (its pings only); else a key every job's pings may write. */
  perCheck: boolean;
  projected: number;
}

const PROJECTED_JOBS = 100_000;
/** DynamoDB's write bound per partition key and second (table or index). */
const KEY_WCU_LIMIT = 1000;
/** Keys listed: the hottest by projection. */
const KEYS_LISTED = 8;
/** A due shard's sub-keys (`gsi2:DUE#<shard>#<nn>`), and a shard's one key as releases before them wrote it. */
const DUE_SUB_KEY = /^gsi2:DUE#\d+#\d+$/;
const DUE_ONE_KEY = /^gsi2:DUE#\d+$/;

/**
 * Each key's projection to PROJECTED_JOBS: a check's own key stays as it is; a shared key grows
 * with the jobs, its units over `seconds` taken as their mean per second. The due index's sub-keys
 * (`gsi2:DUE#<shard>#<nn>`, each check on one by hashes of its id: shardOf, dueSubKeyOf) are
 * projected together, as their mean over all shards × DUE_SUB_KEYS, and listed as one row: a few
 * jobs fall unevenly on them, 100,000 evenly (within twice the mean, test/domain/due-sub-keys.test.ts).
 * An entry written under a shard's one key (`gsi2:DUE#<shard>`) is projected over the shards alone.
 */
function projectBurstKeys(
  measured: { pk: string; wcu: number }[],
  input: { jobs: number; checkPartitions: ReadonlySet<string>; dueShards: number; seconds: number },
): { hottest: BurstKey[]; dueIndex: CronBurstCloud['dueIndex'] } {
  const scale = PROJECTED_JOBS / input.jobs;
  const keys = measured.map(({ pk, wcu }) => ({
    pk,
    wcu: input.checkPartitions.has(pk) ? wcu : wcu / input.seconds,
  }));
  const unitsOf = (re: RegExp) => keys.filter((k) => re.test(k.pk)).reduce((sum, k) => sum + k.wcu, 0);
  const [subKeyUnits, oneKeyUnits] = [unitsOf(DUE_SUB_KEY), unitsOf(DUE_ONE_KEY)];
  const dueKeys = input.dueShards * DUE_SUB_KEYS;
  const perSubKey = (subKeyUnits * scale) / dueKeys;
  const perOneKey = (oneKeyUnits * scale) / input.dueShards;
  const dueIndex = {
    shards: input.dueShards,
    keys: dueKeys,
    wcu: subKeyUnits + oneKeyUnits,
    projectedPerKey: Math.max(perSubKey, perOneKey),
  };
  const subKeysRow: BurstKey[] =
    subKeyUnits > 0
      ? [
          {
            pk: `gsi2:DUE#<shard>#<nn> (each of ${dueKeys}, their mean)`,
            wcu: subKeyUnits / dueKeys,
            perCheck: false,
            projected: perSubKey,
          },
        ]
      : [];
  const hottest = keys
    .filter(({ pk }) => !DUE_SUB_KEY.test(pk))
    .map(({ pk, wcu }) => {
      const perCheck = input.checkPartitions.has(pk);
      const projected = perCheck ? wcu : DUE_ONE_KEY.test(pk) ? perOneKey : wcu * scale;
      return { pk, wcu, perCheck, projected };
    })
    .concat(subKeysRow)
    .sort((a, b) => b.projected - a.projected)
    .slice(0, KEYS_LISTED);
  return { hottest, dueIndex };
}
/** Checks per entity: the default plan's limit. */
const PER_ENTITY = 20;
const SPREAD_SECONDS = 30;

const idSchema = z.object({ id: z.string() });
const tokenSchema = z.object({ token: z.string() });
const runsSchema = z.object({
  runs: z.array(z.object({ outcome: z.string(), duration_ms: z.number().nullable().optional() })),
});

/** Runs `make` over `items`, `width` at a time, calling `between` after each batch. */
async function inBatches<T>(
  items: readonly T[],
  width: number,
  make: (item: T, index: number) => Promise<void>,
  between: () => Promise<void> = async () => {},
) {
  for (let i = 0; i < items.length; i += width) {
    await Promise.all(items.slice(i, i + width).map((item, j) => make(item, i + j)));
    await between();
  }
}

/** GETs every path, `concurrency` in flight, counting statuses and timing each answer. */
async function wave(url: string, paths: string[], concurrency: number): Promise<WaveFigures> {
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next] as string;
      next += 1;
      const sent = performance.now();
      const res = await fetch(`${url}${path}`);
      await res.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    pings: paths.length,
    statuses,
    latencyMs: percentiles(latencies),
    seconds: round((performance.now() - started) / 1000, 2),
  };
}

/** Job i's success comes (i mod 30) + 1 s after the starts: the jobs ending in each second. */
const endingAt = (jobs: number, second: number) =>
  Array.from({ length: jobs }, (_, i) => i).filter((i) => (i % SPREAD_SECONDS) + 1 === second);

export async function runCronBurstLocal(options: {
  jobs: number;
  concurrency: number;
  logFile: string;
  onProgress?: (line: string) => void;
}): Promise<CronBurstLocal> {
  const progress = options.onProgress ?? (() => {});
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-cronburst-'));
  const child = startChild('cronburst-child.ts', { logFile: options.logFile });
  try {
    const ready = await child.ask(
      { type: 'setup', dataDir, startMs: Date.parse('2026-11-29T02:59:00.000Z') },
      'ready',
      z.object({ url: z.string(), key: z.string(), pid: z.number() }),
    );
    const { url, key } = ready;
    const advance = (ms: number) =>
      child.ask({ type: 'advance', ms }, 'advanced', z.object({ nowMs: z.number() }));
    // A second of the fake clock per batch keeps setup under the key's 20/s and the tenant's 100/s.
    const tick = async () => {
      await advance(1000);
    };

    const seeded = performance.now();
    await call(url, key, 'POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
    const entities: string[] = [];
    const entityCount = Math.ceil(options.jobs / PER_ENTITY);
    await inBatches(
      Array.from({ length: entityCount }, (_, i) => i),
      16,
      async (i) => {
        const body = { slug: `host-${i}`, name: `Host ${i}` };
        entities[i] = idSchema.parse(await call(url, key, 'POST', '/v1/blueprints/cron/entities', body)).id;
      },
      tick,
    );
    const tokens: string[] = [];
    await inBatches(
      Array.from({ length: options.jobs }, (_, i) => i),
      8,
      async (i) => {
        const check = idSchema.parse(
          await call(url, key, 'POST', '/v1/checks', {
            entity_id: entities[Math.floor(i / PER_ENTITY)],
            check_type: 'push',
            name: `Job ${i}`,
            interval_seconds: 3600,
            failure_threshold: 1,
          }),
        );
        tokens[i] = tokenSchema.parse(
          await call(url, key, 'POST', `/v1/checks/${check.id}/push-tokens`),
        ).token;
        if (i > 0 && i % 1000 === 0) progress(`${i} heartbeats created`);
      },
      tick,
    );
    const seedSeconds = round((performance.now() - seeded) / 1000, 1);
    progress(`${options.jobs} heartbeats created in ${seedSeconds} s; the top of the hour`);

    // The top of the hour: every job's /start in the same second of the product's clock.
    await advance(60_000);
    const cpuBefore = processUsage(ready.pid)?.cpuSeconds;
    const starts = await wave(
      url,
      tokens.map((t) => `/ping/${t}/start`),
      options.concurrency,
    );
    progress(`${starts.pings} starts answered in ${starts.seconds} s, p99 ${round(starts.latencyMs.p99)} ms`);
    const successes: WaveFigures[] = [];
    for (let second = 1; second <= SPREAD_SECONDS; second += 1) {
      await advance(1000);
      const ending = endingAt(options.jobs, second).map((i) => `/ping/${tokens[i]}`);
      successes.push(await wave(url, ending, options.concurrency));
    }
    const cpuAfter = processUsage(ready.pid)?.cpuSeconds;
    const ends = mergeWaves(successes);
    progress(
      `${ends.pings} successes answered over ${SPREAD_SECONDS} fake seconds, p99 ${round(ends.latencyMs.p99)} ms`,
    );

    // The runs, read back through the API.
    let runsFormed = 0;
    let runsTimedRight = 0;
    const checkIds = await allCheckIds(url, key);
    // Job i ran (i mod 30) + 1 s; which check is job i is not read back, so a run counts as timed
    // right when its duration is one the bench sent.
    const expected = new Set(Array.from({ length: SPREAD_SECONDS }, (_, s) => (s + 1) * 1000));
    await inBatches(
      checkIds,
      16,
      async (id) => {
        const { runs } = runsSchema.parse(await call(url, key, 'GET', `/v1/checks/${id}/runs`));
        const done = runs.filter((r) => r.outcome === 'success' && typeof r.duration_ms === 'number');
        runsFormed += done.length;
        runsTimedRight += done.filter((r) => expected.has(r.duration_ms as number)).length;
      },
      tick,
    );
    const pings = starts.pings + ends.pings;
    return {
      jobs: options.jobs,
      concurrency: options.concurrency,
      seedSeconds,
      starts,
      successes: ends,
      refused: (starts.statuses['429'] ?? 0) + (ends.statuses['429'] ?? 0),
      runsFormed,
      runsTimedRight,
      cpuMicrosPerPing:
        cpuBefore === undefined || cpuAfter === undefined
          ? undefined
          : round(((cpuAfter - cpuBefore) * 1e6) / pings, 0),
    };
  } finally {
    await child.ask({ type: 'stop' }, 'stopped', z.object({})).catch(() => undefined);
    await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The successes' 30 waves as one: statuses summed, latencies pooled (by their percentiles' weights). */
function mergeWaves(waves: WaveFigures[]): WaveFigures {
  const statuses: Record<string, number> = {};
  for (const w of waves)
    for (const [status, n] of Object.entries(w.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const count = waves.reduce((n, w) => n + w.pings, 0);
  const worst = (pick: (p: Percentiles) => number) => Math.max(0, ...waves.map((w) => pick(w.latencyMs)));
  return {
    pings: count,
    statuses,
    // Each second's wave is small: its worst p50/p99 bounds the pooled ones from above.
    latencyMs: {
      count,
      p50: worst((p) => p.p50),
      p95: worst((p) => p.p95),
      p99: worst((p) => p.p99),
      max: worst((p) => p.max),
    },
    seconds: round(
      waves.reduce((s, w) => s + w.seconds, 0),
      2,
    ),
  };
}

/** Every check id of the tenant: GET /v1/checks without a limit answers them all. */
async function allCheckIds(url: string, key: string): Promise<string[]> {
  return z
    .array(idSchema)
    .parse(await call(url, key, 'GET', '/v1/checks'))
    .map((c) => c.id);
}

/**
 * The same burst through the cloud handlers (the ping function's) over a DynamoDB Local of its own,
 * or the one at `endpoint` (a test's), with the deployment's due shards (VIGIL_DUE_SHARDS's default
 * unless `dueShards`).
 */
export async function runCronBurstCloud(options: {
  jobs: number;
  endpoint?: string;
  dueShards?: number;
  onProgress?: (line: string) => void;
}): Promise<CronBurstCloud> {
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  const local = options.endpoint ? undefined : await startDynamoDbLocal();
  try {
    return await withMeteredPipeline(
      {
        endpoint: options.endpoint ?? local?.endpoint ?? '',
        name: 'cronburst',
        logLevelVariable: 'COST_LOG_LEVEL',
        ...(options.dueShards ? { env: { VIGIL_DUE_SHARDS: String(options.dueShards) } } : {}),
      },
      async (pipeline) => {
        const { meter, clock, cloud } = pipeline;
        const key = pipeline.tenant.rawKey;
        const { setup } = apiFunctionClient(createApiHandler(cloud), clock, { key, userAgent: 'curl' });
        const pings = apiFunctionClient(createPingHandler(cloud), clock, { key, userAgent: 'curl' });
        await setup('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
        const jobs: { checkId: string; token: string }[] = [];
        let entityId = '';
        for (let i = 0; i < options.jobs; i += 1) {
          if (i % PER_ENTITY === 0)
            entityId = String(
              (await setup('POST', '/v1/blueprints/cron/entities', { slug: `host-${i}`, name: `Host ${i}` }))
                .id,
            );
          const check = await setup('POST', '/v1/checks', {
            entity_id: entityId,
            check_type: 'push',
            interval_seconds: 3600,
            failure_threshold: 1,
          });
          const token = await setup('POST', `/v1/checks/${check.id}/push-tokens`);
          jobs.push({ checkId: String(check.id), token: String(token.token) });
          if (i > 0 && i % 250 === 0) progress(`cloud: ${i} heartbeats created`);
        }
        const count = (into: Record<string, number>, status: number) => {
          into[status] = (into[status] ?? 0) + 1;
        };
        // An hour of the jobs before: each pinged once (so each is up, its deadline in the due index,
        // and its 5-minute bucket open), as every hour after the first finds them.
        const primed: Record<string, number> = {};
        await inBatches(jobs, 50, async (job) => {
          count(primed, (await pings.request('GET', `/ping/${job.token}`)).status);
        });
        if (primed[200] !== options.jobs) throw new Error(`the hour before: ${statusText(primed)}`);
        await pipeline.drainChanges();
        const projection = {
          jobs: options.jobs,
          checkPartitions: new Set(jobs.map((j) => checkPartition(j.checkId))),
          dueShards: cloud.config.dueShards,
        };
        const metered = async (send: () => Promise<void>) => {
          meter.reset();
          meter.resume();
          await send();
          meter.pause();
          return meter.hottestKeysOverall(Number.POSITIVE_INFINITY);
        };
        // The top of the hour: every start in the same second of the clock, 50 in flight.
        clock.set(Math.ceil(clock.now() / 3_600_000) * 3_600_000);
        const starts: Record<string, number> = {};
        const startKeys = await metered(() =>
          inBatches(jobs, 50, async (job) => {
            count(starts, (await pings.request('GET', `/ping/${job.token}/start`)).status);
          }),
        );
        const { hottest, dueIndex } = projectBurstKeys(startKeys, { ...projection, seconds: 1 });
        const successes: Record<string, number> = {};
        const successKeys = await metered(async () => {
          for (let second = 1; second <= SPREAD_SECONDS; second += 1) {
            clock.set(clock.now() + 1000);
            await inBatches(endingAt(options.jobs, second), 50, async (i) => {
              count(successes, (await pings.request('GET', `/ping/${jobs[i]?.token}`)).status);
            });
          }
        });
        const ends = projectBurstKeys(successKeys, { ...projection, seconds: SPREAD_SECONDS });
        let runsFormed = 0;
        for (const job of jobs) {
          const { runs } = runsSchema.parse(await setup('GET', `/v1/checks/${job.checkId}/runs`));
          runsFormed += runs.filter(
            (r) => r.outcome === 'success' && typeof r.duration_ms === 'number',
          ).length;
        }
        meter.detach();
        return {
          jobs: options.jobs,
          starts,
          successes,
          runsFormed,
          hottest,
          dueIndex,
          successesHottest: ends.hottest,
          successesDueIndex: ends.dueIndex,
          seconds: Math.round((performance.now() - started) / 1000),
        };
      },
    );
  } finally {
    await local?.stop();
  }
}

const statusText = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');

/** The listed keys over the per-key bound at 100,000 jobs, or "none". */
const overLimit = (keys: BurstKey[]) =>
  keys
    .filter((k) => k.projected > KEY_WCU_LIMIT)
    .map((k) => `${k.pk} (${round(k.projected, 0)})`)
    .join(', ') || 'none';

/** The due shards that would keep each key's projection under the per-key bound (each has DUE_SUB_KEYS keys). */
const dueShardsNeeded = (d: CronBurstCloud['dueIndex']) =>
  Math.max(1, Math.ceil((d.projectedPerKey * d.keys) / (KEY_WCU_LIMIT * DUE_SUB_KEYS)));

/** The figures as Markdown. */
export function formatCronBurst(f: CronBurstFigures): string {
  const l = f.local;
  const out = [
    `Cron burst, local (${l.jobs} heartbeats of one tenant, scheduler off, default rate limits; a fake clock: every /start in one second, each success 1–30 s of it later; ${l.concurrency} pings in flight over HTTP on 127.0.0.1; ${l.seedSeconds} s to create them):\n`,
    table(
      ['wave', 'pings', 'answers', 'p50 ms', 'p99 ms', 'max ms', 'real s'],
      [l.starts, l.successes].map((w, i) => [
        i === 0 ? 'starts (one second)' : 'successes (30 seconds)',
        String(w.pings),
        statusText(w.statuses),
        String(round(w.latencyMs.p50)),
        String(round(w.latencyMs.p99)),
        String(round(w.latencyMs.max)),
        String(w.seconds),
      ]),
    ),
    `\n429s: ${l.refused}; runs formed: ${l.runsFormed} of ${l.jobs} (${l.runsTimedRight} timed as sent); server CPU ${l.cpuMicrosPerPing ?? '?'} µs per ping`,
  ];
  if (f.cloud) {
    const c = f.cloud;
    const projected = `projected (${PROJECTED_JOBS.toLocaleString('en')} jobs)`;
    const keyTable = (keys: BurstKey[]) =>
      table(
        ['partition key', 'WCU', 'per check', projected],
        keys.map((h) => [
          h.pk,
          String(round(h.wcu, 1)),
          h.perCheck ? 'yes' : 'no',
          String(round(h.projected, 0)),
        ]),
      );
    const dueText = (d: CronBurstCloud['dueIndex']) =>
      `the due index's ${d.keys} keys (${d.shards} shards × ${DUE_SUB_KEYS} sub-keys) took ${round(d.wcu, 1)} WCU, ${round(d.projectedPerKey, 0)} each projected (${dueShardsNeeded(d)} shards would keep each under ${KEY_WCU_LIMIT.toLocaleString('en')})`;
    out.push(
      `\nCron burst, cloud (${c.jobs} heartbeats through the ping function's handler over DynamoDB Local, each pinged once an hour before, ${c.seconds} s): starts ${statusText(c.starts)}; successes ${statusText(c.successes)}; runs formed ${c.runsFormed} of ${c.jobs}. Write units per partition key, the table's and each index's (\`gsi2:\`), projected to ${PROJECTED_JOBS.toLocaleString('en')} jobs (a check's own key stays; a shared key grows with the jobs; the due index's keys by their mean), hottest first. The starts' second:\n`,
      keyTable(c.hottest),
      `\nOver ${KEY_WCU_LIMIT.toLocaleString('en')} WCU projected: ${overLimit(c.hottest)}; ${dueText(c.dueIndex)}. The successes' ${SPREAD_SECONDS} seconds (a shared key's units per second, their mean):\n`,
      keyTable(c.successesHottest),
      `\nOver ${KEY_WCU_LIMIT.toLocaleString('en')} WCU projected: ${overLimit(c.successesHottest)}; ${dueText(c.successesDueIndex)}.`,
    );
  }
  return out.join('\n');
}
