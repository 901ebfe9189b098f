import { readdirSync, readFileSync } from 'node:fs';
import { PROBE_THREAD_PREFIX } from '../lib/local/probe-threads.ts';
import { CHECKPOINT_THREAD } from '../lib/sqlite/sqlite-checkpointer.ts';
import { WRITER_THREAD_NAME } from '../lib/sqlite/sqlite-writer-client.ts';

/**
 * CPU time of this process's threads, grouped by role, from `/proc/self/task/<tid>/stat` (Linux).
 * Vigil names its worker threads (lib/platform/module-worker.ts); the event loop is the thread
 * whose id is the process id; every other thread (V8's GC and compiler helpers, libuv's pool) is
 * `helpers`.
 */

export const THREAD_GROUPS = ['event loop', 'writer', 'probe threads', 'checkpointer', 'helpers'] as const;
export type ThreadGroup = (typeof THREAD_GROUPS)[number];

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

export function threadGroup(tid: number, pid: number, name: string): ThreadGroup {
  if (tid === pid) return 'event loop';
  if (name === WRITER_THREAD_NAME) return 'writer';
  if (name.startsWith(PROBE_THREAD_PREFIX)) return 'probe threads';
  if (name === CHECKPOINT_THREAD) return 'checkpointer';
  return 'helpers';
}

/** user + system CPU seconds of one thread from its `stat` line (fields 14 and 15, after the name in parentheses). */
export function statCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds used so far by each thread group of this process (threads that ended are not counted). */
export function readThreadCpu(): Record<ThreadGroup, number> {
  const totals = Object.fromEntries(THREAD_GROUPS.map((g) => [g, 0])) as Record<ThreadGroup, number>;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return totals; // not Linux
  }
  for (const tid of tids) {
    try {
      const dir = `/proc/self/task/${tid}`;
      const group = threadGroup(Number(tid), process.pid, readFileSync(`${dir}/comm`, 'utf8').trim());
      totals[group] += statCpuSeconds(readFileSync(`${dir}/stat`, 'utf8'));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return totals;
}

/** Cores used by each group between two readings `wallMs` apart. */
export function threadCores(
  before: Record<ThreadGroup, number>,
  after: Record<ThreadGroup, number>,
  wallMs: number,
): Record<ThreadGroup, number> {
  return Object.fromEntries(
    THREAD_GROUPS.map((g) => [g, (after[g] - before[g]) / Math.max(0.001, wallMs / 1000)]),
  ) as Record<ThreadGroup, number>;
}
