import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Every process the bench starts is tracked here and stopped whatever happens. Each is spawned
 * `detached` (a process group of its own), so stopping it signals the whole group; the scenarios
 * stop what they started in `finally` blocks; `stopOnExit` covers a signal to the bench and its
 * exit; and a child started with `PARENT_GUARD` ends itself when the bench is gone (a
 * SIGKILL leaves no hook to run).
 */

/** `--import` this in a child without an IPC channel (bin/serve.ts): it ends when its parent is gone. */
export const PARENT_GUARD = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), 'parent-guard.ts'),
).href;

const running = new Set<ChildProcess>();
let hooked = false;

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Sends `signal` to the child's process group, or to the child alone if it leads none. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // No group (already empty): the child alone, unless it has exited (its pid may be reused).
    if (!exited(child))
      try {
        process.kill(child.pid, signal);
      } catch {
        // Already gone.
      }
  }
}

/** SIGTERM to the child's group, SIGKILL after `graceMs`; resolves when the child has exited. */
export async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (!exited(child)) {
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalGroup(child, 'SIGTERM');
    const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    await gone;
    clearTimeout(killer);
  }
  // What the child left in its group (a grandchild) goes with it.
  signalGroup(child, 'SIGKILL');
  running.delete(child);
}

function onSignal(signal: NodeJS.Signals): void {
  // A second signal while stopping: no more grace.
  process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.stderr.write(`bench: ${signal}, stopping ${running.size} process(es)\n`);
  void Promise.allSettled([...running].map((child) => stopProcess(child, 5000))).finally(() =>
    process.exit(signal === 'SIGINT' ? 130 : 143),
  );
}

/**
 * For the bench's entry (bench/run.ts): a SIGINT or SIGTERM stops every tracked process before the
 * bench exits, and the exit hook SIGKILLs any group still tracked.
 */
export function stopOnExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', () => {
    for (const child of running) signalGroup(child, 'SIGKILL');
  });
}

/** Tracks a child spawned with `detached: true` until it exits. */
export function track(child: ChildProcess): void {
  if (exited(child)) return;
  running.add(child);
  child.once('exit', () => {
    // The leader is gone; anything left in its group is not wanted either.
    signalGroup(child, 'SIGKILL');
    running.delete(child);
  });
}
