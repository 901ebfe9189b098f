import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { type BenchChild, startChild } from './child.ts';
import { type LoopHealth, type Percentiles, round } from './stats.ts';
import { THREAD_GROUPS, type ThreadGroup } from './threads.ts';

/** The probe scenarios: the bare Node ceiling, the scheduled runtime, and the runtime at its maximum rate. */

const percentilesSchema = z.object({
  count: z.number(),
  p50: z.number(),
  p95: z.number(),
  p99: z.number(),
  max: z.number(),
});
const loopSchema = z.object({
  delayP50Ms: z.number(),
  delayP99Ms: z.number(),
  delayMaxMs: z.number(),
  utilization: z.number(),
  cpuCores: z.number(),
  rssMaxMb: z.number(),
  rssEndMb: z.number(),
});
const hitsSchema = z.object({ hits: z.number(), atMs: z.number(), cpuMs: z.number() });
const anyMessage = z.looseObject({});

export interface Target {
  url: string;
  child: BenchChild;
}

/** Starts the loopback target in its own process. */
export async function startTarget(logFile: string): Promise<Target> {
  const child = startChild('target-server.ts', { logFile });
  try {
    const { url } = await child.next('ready', z.object({ url: z.string() }));
    return { url, child };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** Target requests and CPU between two readings. */
async function targetWindow(target: Target) {
  const before = await target.child.ask({ type: 'hits' }, 'hits', hitsSchema);
  return async () => {
    const after = await target.child.ask({ type: 'hits' }, 'hits', hitsSchema);
    const wallMs = Math.max(1, after.atMs - before.atMs);
    return {
      requestsPerSecond: ((after.hits - before.hits) * 1000) / wallMs,
      cpuCores: (after.cpuMs - before.cpuMs) / wallMs,
    };
  };
}

export interface BareFigures {
  concurrency: number;
  requestsPerSecond: number;
  ok: number;
  failed: number;
  latencyMs: Percentiles;
  loop: LoopHealth;
  targetCpuCores: number;
}

/** The bare Node loop ceiling: fresh-connection GETs at `concurrency`, in a child of its own. */
export async function runBareLoop(
  target: Target,
  options: { concurrency: number; durationMs: number; maxRequests: number; logFile: string },
): Promise<BareFigures> {
  const child = startChild('bare-loop.ts', { logFile: options.logFile });
  try {
    await child.next('ready', anyMessage);
    const end = await targetWindow(target);
    const done = await child.ask(
      {
        type: 'run',
        url: target.url,
        concurrency: options.concurrency,
        durationMs: options.durationMs,
        maxRequests: options.maxRequests,
      },
      'done',
      z.object({
        ok: z.number(),
        failed: z.number(),
        elapsedMs: z.number(),
        latency: percentilesSchema,
        loop: loopSchema,
      }),
      options.durationMs + 60_000,
    );
    const seen = await end();
    return {
      concurrency: options.concurrency,
      requestsPerSecond: (done.ok * 1000) / done.elapsedMs,
      ok: done.ok,
      failed: done.failed,
      latencyMs: done.latency,
      loop: done.loop,
      targetCpuCores: seen.cpuCores,
    };
  } finally {
    await child.stop();
  }
}

export interface RuntimeFigures {
  checks: number;
  intervalSeconds: number;
  concurrency: number;
  /** Demanded probes per second (checks / interval). */
  demandPerSecond: number;
  setupSeconds: number;
  /** Jobs started per second (onJobStart). */
  probesPerSecond: number;
  /** Requests the target answered per second. */
  targetRequestsPerSecond: number;
  /** Result rows added per second (counted in the database from another connection). */
  resultsPerSecond: number;
  latenessMs: Percentiles;
  loop: LoopHealth;
  /** Cores used by each of the runtime's thread groups in the window (bench/threads.ts). */
  threadCores: Record<ThreadGroup, number>;
  targetCpuCores: number;
  scheduler: Record<string, unknown>;
}

const progressSchema = z.object({ started: z.number(), scheduler: z.record(z.string(), z.unknown()) });

/** Waits `warmupMs`, reporting the job start rate every 5 s. */
async function warmUp(child: BenchChild, warmupMs: number, onProgress?: (line: string) => void) {
  const end = performance.now() + warmupMs;
  let last = await child.ask({ type: 'progress' }, 'progress', progressSchema);
  let lastAt = performance.now();
  while (performance.now() < end) {
    await sleep(Math.min(5000, end - performance.now()));
    const now = await child.ask({ type: 'progress' }, 'progress', progressSchema);
    const rate = ((now.started - last.started) * 1000) / (performance.now() - lastAt);
    onProgress?.(`  warm-up: ${Math.round(rate)} jobs/s, ${JSON.stringify(now.scheduler)}`);
    last = now;
    lastAt = performance.now();
  }
}

/**
 * Check results stored: a per-check result item counts one, a cell's slot item (`cell_results`,
 * pk CELLRES#) one per member it holds, so the figure is per check in either layout (and in the
 * previous commit's, for --against).
 */
export function countResults(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const row = z.object({ n: z.number().nullable() }).parse(
      db
        .prepare(
          `SELECT sum(CASE WHEN pk >= 'CELLRES#' AND pk < 'CELLRES$' THEN json_array_length(data, '$.results') ELSE 1 END) AS n
           FROM items WHERE sk >= 'RES#' AND sk < 'RES$'`,
        )
        .get(),
    );
    return row.n ?? 0;
  } finally {
    db.close();
  }
}

/**
 * The local runtime in a child process (real startLocalRuntime, SQLite in a temp dir) running
 * `checks` http checks every `intervalSeconds` against the target: set up, warm up, then measure.
 */
export async function runRuntime(
  target: Target,
  options: {
    checks: number;
    intervalSeconds: number;
    concurrency: number;
    dueShards: number;
    probeThreads: number;
    warmupMs: number;
    durationMs: number;
    logFile: string;
    label: string;
    /** Create the checks with the scheduler off, then restart with it on (see runtime-child.ts). */
    restart: boolean;
    /** false: the `unrecorded` diagnostic, results dropped instead of recorded (see runtime-child.ts). */
    record?: boolean;
    profileDir?: string;
    /** Extra node flags for the runtime's process (e.g. --max-semi-space-size=32). */
    nodeFlags?: string[];
    /** Extra environment for the runtime's process. */
    env?: Record<string, string>;
    /** The checkout whose runtime runs (--against); default this one. */
    root?: string;
    onProgress?: (line: string) => void;
  },
): Promise<RuntimeFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const child = startChild('runtime-child.ts', {
    logFile: options.logFile,
    ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.root ? { root: options.root } : {}),
  });
  try {
    await child.next('alive', anyMessage);
    const ready = await child.ask(
      {
        type: 'setup',
        dataDir,
        targetUrl: target.url,
        checks: options.checks,
        intervalSeconds: options.intervalSeconds,
        concurrency: options.concurrency,
        dueShards: options.dueShards,
        probeThreads: options.probeThreads,
        label: options.label,
        restart: options.restart,
        record: options.record ?? true,
        ...(options.profileDir ? { profileDir: options.profileDir } : {}),
      },
      'ready',
      z.object({ checks: z.number(), setupMs: z.number() }),
      600_000,
    );
    options.onProgress?.(
      `${ready.checks} checks created in ${round(ready.setupMs / 1000)} s; warming up ${options.warmupMs / 1000} s`,
    );
    await warmUp(child, options.warmupMs, options.onProgress);
    const dbPath = join(dataDir, 'vigil.db');
    const results0 = countResults(dbPath);
    const t0 = performance.now();
    const end = await targetWindow(target);
    await child.ask({ type: 'start' }, 'started', anyMessage);
    await sleep(options.durationMs);
    const stats = await child.ask(
      { type: 'stop' },
      'stats',
      z.object({
        elapsedMs: z.number(),
        jobs: z.number(),
        lateness: percentilesSchema,
        loop: loopSchema,
        threads: z.record(z.enum(THREAD_GROUPS), z.number()),
        scheduler: z.record(z.string(), z.unknown()),
        profile: z.string().optional(),
      }),
    );
    if (stats.profile) options.onProgress?.(`  CPU profile of the window: ${stats.profile}`);
    const seen = await end();
    const results1 = countResults(dbPath);
    const resultsElapsedMs = performance.now() - t0;
    return {
      checks: ready.checks,
      intervalSeconds: options.intervalSeconds,
      concurrency: options.concurrency,
      demandPerSecond: ready.checks / options.intervalSeconds,
      setupSeconds: ready.setupMs / 1000,
      probesPerSecond: (stats.jobs * 1000) / stats.elapsedMs,
      targetRequestsPerSecond: seen.requestsPerSecond,
      resultsPerSecond: ((results1 - results0) * 1000) / resultsElapsedMs,
      latenessMs: stats.lateness,
      loop: stats.loop,
      threadCores: stats.threads,
      targetCpuCores: seen.cpuCores,
      scheduler: stats.scheduler,
    };
  } finally {
    await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
