import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { startChild } from './child.ts';
import { table } from './markdown.ts';
import { countResults } from './probes.ts';
import {
  bootEpochMs,
  commandLine,
  memoryKb,
  pairRuns,
  readAllStats,
  type SeenRun,
  TICKS_PER_SECOND,
  treeOf,
  treeTicks,
} from './proc-tree.ts';
import { type Percentiles, percentiles, round } from './stats.ts';

/**
 * `--only browser`: `checks` browser checks (a goto to a page this process serves on 127.0.0.1
 * and an assert on its text) every `intervalSeconds` in a real local runtime, scheduler on, for
 * `minutes` measured minutes after one unmeasured interval. Everything the runtime and what it
 * starts (the browser runner's children, Chromium under them) use is read from /proc
 * (./proc-tree.ts), sampled every 250 ms: CPU over the window, peak memory (PSS), and each run's
 * start (its process's start tick) and end (when it was last seen).
 */

const SAMPLE_MS = 250;
const MEMORY_EVERY = 4;
/** The runner's child, whose processes are the runs. */
const RUN_MARK = 'probes/browser/browser-child';

export interface BrowserLoadOptions {
  checks: number;
  intervalSeconds: number;
  minutes: number;
  timeoutMs: number;
  browserRuns: number;
  probeThreads: number;
  logFile: string;
  onProgress: (line: string) => void;
}

export interface BrowserLoadFigures {
  checks: number;
  intervalSeconds: number;
  minutes: number;
  browserRuns: number;
  probeThreads: number;
  /** Runs due in the window (each check once per interval). */
  due: number;
  /** Runs that started in the window, and runs that ended in it (whichever slot they served). */
  started: number;
  done: number;
  /** Results stored while measuring. */
  resultsStored: number;
  /** Of the runs started in the window (whichever slot they served): start minus due time. */
  latenessMs: Percentiles;
  /** A run's process lifetime, ± the sample period. */
  runMs: Percentiles;
  /** The runtime's process tree: CPU seconds per wall second over the window, and its peak PSS. */
  cpuCores: number;
  peakMemoryMb: number;
  /** The whole machine over the window: busy cores of all its CPUs, and the load averages before and after. */
  machineBusyCores: number;
  machineCpus: number;
  loadBefore: number[];
  loadAfter: number[];
  /** This process's own CPU (sampling /proc, serving the page), per wall second. */
  samplerCores: number;
  pageRequests: number;
}

/** Busy and total jiffies of the machine (the first line of /proc/stat). */
function machineJiffies(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  // idle and iowait are fields 4 and 5.
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

export async function runBrowserLoad(options: BrowserLoadOptions): Promise<BrowserLoadFigures> {
  let pageRequests = 0;
  const server = createServer((req, res) => {
    pageRequests += 1;
    const check = new URL(req.url ?? '/', 'http://page').searchParams.get('check') ?? '?';
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><head><title>Status ${check}</title></head><body><h1>Status</h1><p id="status">All systems go</p></body></html>`,
      );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-browser-'));
  const child = startChild('browser-runtime-child.ts', { logFile: options.logFile });
  const pid = child.process.pid ?? -1;
  const boot = bootEpochMs();
  const runs = new Map<string, SeenRun>();
  const marked = new Map<string, boolean>();
  let samples = 0;
  let peakKb = 0;
  let sampling = true;
  const sample = () => {
    const now = Date.now();
    const tree = treeOf(pid, readAllStats());
    const alive = new Set<string>();
    for (const p of tree) {
      const id = `${p.pid}@${p.startTicks}`;
      if (!marked.has(id)) marked.set(id, commandLine(p.pid).includes(RUN_MARK));
      if (!marked.get(id)) continue;
      alive.add(id);
      const run = runs.get(id);
      if (run) run.lastSeenMs = now;
      else
        runs.set(id, {
          pid: p.pid,
          startMs: boot + (p.startTicks * 1000) / TICKS_PER_SECOND,
          lastSeenMs: now,
        });
    }
    for (const [id, run] of runs) if (run.goneMs === undefined && !alive.has(id)) run.goneMs = now;
    samples += 1;
    if (samples % MEMORY_EVERY === 0)
      peakKb = Math.max(
        peakKb,
        tree.reduce((s, p) => s + memoryKb(p.pid), 0),
      );
    return treeTicks(tree);
  };
  const sampler = (async () => {
    while (sampling) {
      sample();
      await sleep(SAMPLE_MS);
    }
  })();
  try {
    await child.next('alive', z.looseObject({}));
    const ready = await child.ask(
      {
        type: 'setup',
        dataDir,
        pageUrl,
        checks: options.checks,
        intervalSeconds: options.intervalSeconds,
        timeoutMs: options.timeoutMs,
        browserRuns: options.browserRuns,
        probeThreads: options.probeThreads,
      },
      'ready',
      z.object({ checks: z.number(), createdAtMs: z.number() }),
      300_000,
    );
    options.onProgress(
      `${ready.checks} browser checks created; one unmeasured interval (${options.intervalSeconds} s)`,
    );
    await sleep(options.intervalSeconds * 1000);
    const dbPath = join(dataDir, 'vigil.db');
    const results0 = countResults(dbPath);
    const loadBefore = loadavg().map((v) => round(v, 2));
    const machine0 = machineJiffies();
    const self0 = process.cpuUsage();
    const ticks0 = sample();
    peakKb = 0;
    const t0 = Date.now();
    for (let m = 1; m <= options.minutes; m += 1) {
      await sleep(60_000);
      options.onProgress(
        `minute ${m} of ${options.minutes}: ${[...runs.values()].filter((r) => r.startMs >= t0).length} runs started`,
      );
    }
    const ticks1 = sample();
    const t1 = Date.now();
    const machine1 = machineJiffies();
    const self1 = process.cpuUsage(self0);
    const loadAfter = loadavg().map((v) => round(v, 2));
    const results1 = countResults(dbPath);
    // The runs due in the window may end after it: up to a run's timeout and the runner's grace.
    await sleep(Math.min(options.timeoutMs + 20_000, 30_000));
    const { jobs } = await child.ask(
      { type: 'handed' },
      'handed',
      z.object({ jobs: z.array(z.object({ dueMs: z.number(), handedMs: z.number() })) }),
    );
    const byStart = [...runs.values()].sort((a, b) => a.startMs - b.startMs);
    const paired = pairRuns(
      jobs,
      byStart.map((r) => r.startMs),
    ).map((p, i) => ({ ...p, run: byStart[i] }));
    // The runs that started in the window, whichever slot they served (a runtime behind serves older ones).
    const inWindow = paired.filter((p) => p.startMs >= t0 && p.startMs < t1);
    const wallSeconds = (t1 - t0) / 1000;
    const cpus = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .filter((l) => /^cpu\d/.test(l)).length;
    return {
      checks: ready.checks,
      intervalSeconds: options.intervalSeconds,
      minutes: options.minutes,
      browserRuns: options.browserRuns,
      probeThreads: options.probeThreads,
      due: Math.round((ready.checks * wallSeconds) / options.intervalSeconds),
      started: byStart.filter((r) => r.startMs >= t0 && r.startMs < t1).length,
      done: byStart.filter((r) => r.goneMs !== undefined && r.goneMs >= t0 && r.goneMs < t1).length,
      resultsStored: results1 - results0,
      latenessMs: percentiles(inWindow.map((p) => p.startMs - p.dueMs)),
      runMs: percentiles(
        inWindow.flatMap((p) =>
          p.run?.goneMs !== undefined ? [(p.run.lastSeenMs + p.run.goneMs) / 2 - p.run.startMs] : [],
        ),
      ),
      cpuCores: round((ticks1 - ticks0) / TICKS_PER_SECOND / wallSeconds, 2),
      peakMemoryMb: round(peakKb / 1024),
      machineBusyCores: round(
        ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * cpus,
        2,
      ),
      machineCpus: cpus,
      loadBefore,
      loadAfter,
      samplerCores: round((self1.user + self1.system) / 1e6 / wallSeconds, 3),
      pageRequests,
    };
  } finally {
    sampling = false;
    await sampler;
    await child.stop();
    server.closeAllConnections();
    server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ms = (p: Percentiles) => `${Math.round(p.p50)} / ${Math.round(p.p99)} (n ${p.count})`;

/** The figures as a Markdown table. */
export function formatBrowserLoad(f: BrowserLoadFigures): string {
  return [
    `Browser checks on this machine: ${f.checks} checks (goto + assert on a page served on 127.0.0.1) every ${f.intervalSeconds} s, ${f.minutes} measured minute(s) after one unmeasured interval; VIGIL_BROWSER_RUNS ${f.browserRuns}, VIGIL_PROBE_THREADS ${f.probeThreads}:\n`,
    table(
      ['figure', 'value'],
      [
        ['runs due in the window / started in it / ended in it', `${f.due} / ${f.started} / ${f.done}`],
        ['results stored in the window', String(f.resultsStored)],
        ['lateness of the runs started, run start − due, p50 / p99 ms', ms(f.latenessMs)],
        ['run time (the run process), p50 / p99 ms', ms(f.runMs)],
        ['CPU of the runtime + runner children + Chromium (cores)', String(f.cpuCores)],
        ['peak memory of that tree (PSS, MB)', String(f.peakMemoryMb)],
        [`machine busy over the window (cores of ${f.machineCpus})`, String(f.machineBusyCores)],
        ['load average before → after', `${f.loadBefore.join(' ')} → ${f.loadAfter.join(' ')}`],
        ['the bench process itself (sampling /proc, serving the page; cores)', String(f.samplerCores)],
        ['page requests', String(f.pageRequests)],
      ],
    ),
  ].join('\n');
}
