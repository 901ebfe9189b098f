import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { killAll, treeBytes } from './process-tree.ts';

/**
 * A browser run's memory bound: the most its processes (the runner's child, Chromium and all of
 * Chromium's children) may hold together. Where the host lets this process make memory cgroups —
 * cgroup v1's memory hierarchy at its own cgroup, or a cgroup v2 directory with the memory
 * controller delegated to it — each run gets a cgroup of its own whose limit the kernel enforces
 * (at the limit it reclaims, then kills the largest process in the run: its renderer, and the page
 * crashes). Elsewhere (a systemd unit's service, whose cgroups it may not write; a container
 * without a delegated cgroup) the runner watches the tree through /proc every WATCH_MS and kills
 * the run once it holds more: a bound that the allocation rate can overrun for WATCH_MS, which the
 * service's own ceiling (MemoryMax in deploy/vigil.service, mem_limit in compose.yaml) backs.
 */

/** How often the /proc watch sums a run's memory. */
const WATCH_MS = 200;
/** A run's cgroup, named for the server's pid so that a later server can tell a dead one's leftovers. */
const CGROUP_PREFIX = 'vigil-browser-';

export interface MemoryBound {
  /** The bound's kind, for the docs and the tests: `cgroup v1`, `cgroup v2` or `/proc watch`. */
  kind: 'cgroup v1' | 'cgroup v2' | '/proc watch';
  /** Puts the run's first process under the bound (before it starts anything). */
  place(pid: number): Promise<void>;
  /** The most the run held at once, bytes (the cgroup's peak, or the watch's). */
  peakBytes(): Promise<number>;
  /** How many of the run's processes the kernel killed at the cgroup's limit (0 for the watch). */
  oomKills(): Promise<number>;
  /** Kills whatever of the run is left (a cgroup holds even what was reparented) and removes the cgroup. */
  close(): Promise<void>;
}

/** Where run cgroups go: a directory, and which version it is. */
export interface CgroupParent {
  dir: string;
  version: 1 | 2;
}

/**
 * The cgroup directory under which runs get theirs: `explicit` when given (v2 when it has
 * cgroup.controllers), else this process's own memory cgroup when it is v1 (a hybrid host), or its
 * own v2 cgroup when the memory controller is enabled for its children; undefined when neither can
 * be written (the runner then watches /proc).
 */
export function findCgroupParent(explicit?: string): CgroupParent | undefined {
  const writable = (dir: string) => existsSync(join(dir, 'cgroup.procs'));
  if (explicit !== undefined)
    return writable(explicit)
      ? { dir: explicit, version: existsSync(join(explicit, 'cgroup.controllers')) ? 2 : 1 }
      : undefined;
  let lines: string[] = [];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  } catch {
    return undefined;
  }
  for (const line of lines) {
    const [, controllers = '', path = ''] = line.split(':');
    if (controllers.split(',').includes('memory')) {
      const dir = join('/sys/fs/cgroup/memory', path);
      if (writable(dir)) return { dir, version: 1 };
    }
  }
  const unified = lines.find((line) => line.startsWith('0::'))?.slice(3);
  if (unified === undefined) return undefined;
  for (const mount of ['/sys/fs/cgroup', '/sys/fs/cgroup/unified']) {
    const dir = join(mount, unified);
    try {
      if (readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('memory'))
        return { dir, version: 2 };
    } catch {}
  }
  return undefined;
}

/** The pids a cgroup holds. */
async function cgroupPids(dir: string): Promise<number[]> {
  const text = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

/** Kills every process in a cgroup, waits (bounded) until it is empty, and removes it. */
async function removeCgroup(dir: string): Promise<void> {
  for (let round = 0; round < 50; round += 1) {
    const pids = await cgroupPids(dir);
    if (pids.length === 0) break;
    killAll(pids);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await rmdir(dir).catch(() => undefined);
}

/** Removes the run cgroups that servers no longer running left (a server killed mid-run cannot). */
export async function sweepCgroups(parent: CgroupParent | undefined, alive: (pid: number) => boolean) {
  if (!parent) return;
  let entries: string[] = [];
  try {
    entries = readdirSync(parent.dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const owner = new RegExp(`^${CGROUP_PREFIX}(\\d+)-`).exec(entry)?.[1];
    if (owner !== undefined && !alive(Number(owner))) await removeCgroup(join(parent.dir, entry));
  }
}

let runs = 0;

/** A run's cgroup under `parent`, limited to `limitBytes`; undefined when it cannot be made. */
async function cgroupBound(parent: CgroupParent, limitBytes: number): Promise<MemoryBound | undefined> {
  runs += 1;
  // The thread too: probe threads (lib/local/probe-threads.ts) each count their own runs.
  const dir = join(parent.dir, `${CGROUP_PREFIX}${process.pid}-${threadId}-${runs}`);
  try {
    await mkdir(dir);
    if (parent.version === 1) {
      await writeFile(join(dir, 'memory.limit_in_bytes'), String(limitBytes));
      // No swap beyond the limit either (absent where the kernel keeps no swap accounting).
      await writeFile(join(dir, 'memory.memsw.limit_in_bytes'), String(limitBytes)).catch(() => undefined);
    } else {
      await writeFile(join(dir, 'memory.max'), String(limitBytes));
      await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => undefined);
    }
  } catch {
    await rmdir(dir).catch(() => undefined);
    return undefined;
  }
  const peakFile = parent.version === 1 ? 'memory.max_usage_in_bytes' : 'memory.peak';
  const eventsFile = parent.version === 1 ? 'memory.oom_control' : 'memory.events';
  return {
    kind: parent.version === 1 ? 'cgroup v1' : 'cgroup v2',
    place: (pid) => writeFile(join(dir, 'cgroup.procs'), String(pid)),
    peakBytes: async () => Number(await readFile(join(dir, peakFile), 'utf8').catch(() => '0')),
    oomKills: async () => {
      const events = await readFile(join(dir, eventsFile), 'utf8').catch(() => '');
      return Number(/^oom_kill (\d+)$/m.exec(events)?.[1] ?? 0);
    },
    close: () => removeCgroup(dir),
  };
}

/** The /proc watch: sums the tree every WATCH_MS and kills it (saying why) above `limitBytes`. */
function watchBound(limitBytes: number, kill: (why: string) => void): MemoryBound {
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    kind: '/proc watch',
    place: async (pid) => {
      timer = setInterval(() => {
        const bytes = treeBytes(pid);
        peak = Math.max(peak, bytes);
        if (bytes > limitBytes)
          kill(
            `the browser run held more than its memory bound of ${limitBytes / 2 ** 20} MB and was killed`,
          );
      }, WATCH_MS);
    },
    peakBytes: async () => peak,
    oomKills: async () => 0,
    close: async () => clearInterval(timer),
  };
}

/** A run's memory bound: its own cgroup where `parent` allows one, else the /proc watch (`kill` ends the run). */
export async function memoryBound(
  parent: CgroupParent | undefined,
  limitBytes: number,
  kill: (why: string) => void,
): Promise<MemoryBound> {
  return (parent && (await cgroupBound(parent, limitBytes))) || watchBound(limitBytes, kill);
}
