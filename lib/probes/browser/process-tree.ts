import { readdirSync, readFileSync } from 'node:fs';

/**
 * A browser run's processes as Linux's /proc shows them (the runner's child, its Chromium and
 * Chromium's own children): found by their parents, killed together, and their memory summed.
 */

/** Every process under `pid` (Linux /proc), children before their parents' siblings. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Kills each of `pids`, and the process group each may lead. */
export function killAll(pids: readonly number[]): void {
  for (const p of pids) {
    for (const target of [-p, p]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {}
    }
  }
}

/** Kills `pid`, its process group and everything under it. */
export function killTree(pid: number): void {
  killAll([...descendants(pid), pid]);
}

const PAGE_BYTES = 4096;

/**
 * The memory one process made, bytes: its share of anonymous and shared-memory pages (split between
 * the processes that map them, so a tree's sum counts each page once; file pages such as Chromium's
 * binary are the page cache's, shared with every other Chromium on the host), or, where
 * smaps_rollup cannot be read (a sandboxed renderer is not dumpable, and only root reads it then),
 * its resident pages that are not file-backed (statm); 0 once it is gone.
 */
export function processBytes(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(rollup)?.[1] ?? 0);
    return (kb('Pss_Anon') + kb('Pss_Shmem')) * 1024;
  } catch {}
  try {
    const [, resident = 0, shared = 0] = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ').map(Number);
    return Math.max(0, resident - shared) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** The memory `pid` and every process under it hold together, bytes. */
export function treeBytes(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + processBytes(p), 0);
}
