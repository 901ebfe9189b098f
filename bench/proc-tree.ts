import { readdirSync, readFileSync } from 'node:fs';

/**
 * A process and everything under it, read from Linux's /proc: CPU, memory and the runs of a
 * marked child (the browser runner's child). CPU is counted so nothing is lost when a process
 * ends: the root's own time plus its reaped children's (`cutime`, `cstime`), plus each live
 * descendant's own and reaped children's. A process whose parent dies before it is reparented out
 * of the tree and what it uses after that is not counted (Chromium's helpers die with their parent).
 */

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
export const TICKS_PER_SECOND = 100;

export interface ProcStat {
  pid: number;
  ppid: number;
  /** user + system ticks of the process itself. */
  ownTicks: number;
  /** user + system ticks of its children it has waited for. */
  reapedTicks: number;
  /** Ticks after boot when it started. */
  startTicks: number;
}

/** Parses one /proc/<pid>/stat line (the name in parentheses may hold spaces and parentheses). */
export function parseStat(line: string): ProcStat {
  const pid = Number(line.slice(0, line.indexOf(' ')));
  // After ") ": field 3 (state) is [0]; ppid field 4 [1]; utime 14 [11], stime 15 [12],
  // cutime 16 [13], cstime 17 [14]; starttime 22 [19].
  const f = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(f[i] ?? Number.NaN);
  return {
    pid,
    ppid: n(1),
    ownTicks: n(11) + n(12),
    reapedTicks: n(13) + n(14),
    startTicks: n(19),
  };
}

/** `root` and its live descendants among `stats`, root first. */
export function treeOf(root: number, stats: ProcStat[]): ProcStat[] {
  const byParent = new Map<number, ProcStat[]>();
  for (const s of stats) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const self = stats.find((s) => s.pid === root);
  if (!self) return [];
  const out = [self];
  for (let i = 0; i < out.length; i += 1)
    for (const child of byParent.get(out[i]?.pid ?? -1) ?? []) out.push(child);
  return out;
}

/** CPU ticks the tree has used since each process started: the root's own and reaped, the live descendants' likewise. */
export function treeTicks(tree: ProcStat[]): number {
  return tree.reduce((sum, s) => sum + s.ownTicks + s.reapedTicks, 0);
}

/** Every process's stat now (those that end while being read are skipped). */
export function readAllStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      out.push(parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {}
  }
  return out;
}

/** The proportional set size of a process in kB (its share of pages shared with others), or its RSS where smaps_rollup is unreadable. */
export function memoryKb(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
    if (pss) return Number(pss[1]);
  } catch {}
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The command line of a process, arguments joined by spaces ('' once it has ended). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Epoch ms of boot (from /proc/uptime), to turn a start tick into a time. */
export function bootEpochMs(): number {
  const uptimeSeconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  return Date.now() - uptimeSeconds * 1000;
}

/** A run of a marked process: when it started (exact, from its start tick) and when it was last and first not seen. */
export interface SeenRun {
  pid: number;
  startMs: number;
  lastSeenMs: number;
  goneMs?: number;
}

/** A job handed to the browser runner: its due time and when it was handed over. */
export interface HandedJob {
  dueMs: number;
  handedMs: number;
}

/**
 * Pairs the jobs handed to the runner, in the order they were handed, with the runs in the order
 * they started: the runner's pool is first come, first served, so the k-th run to start served the
 * k-th job. Jobs not yet started are left out.
 */
export function pairRuns(jobs: HandedJob[], startsMs: number[]): { dueMs: number; startMs: number }[] {
  const handed = [...jobs].sort((a, b) => a.handedMs - b.handedMs);
  const starts = [...startsMs].sort((a, b) => a - b);
  return handed
    .slice(0, starts.length)
    .map((job, i) => ({ dueMs: job.dueMs, startMs: starts[i] ?? job.dueMs }));
}
