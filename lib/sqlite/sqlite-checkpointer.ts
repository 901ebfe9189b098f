import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { nameThreadSource } from '../platform/module-worker.ts';

/**
 * WAL checkpoints on a worker thread. A checkpoint copies the WAL back into the database file and
 * fsyncs both (synchronous=NORMAL syncs only there); done by the writing connection it blocks the
 * event loop for milliseconds every ~1000 pages. The worker opens its own connection and runs a
 * PASSIVE checkpoint (never blocks the writer) every `everyMs`; the writer keeps an automatic
 * checkpoint at `backstopPages` in case the worker falls behind. Durability is unchanged: a commit
 * is in the WAL when it returns, exactly as before.
 */

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage(String(err));
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** The checkpointer's thread name (its worker and its OS thread). */
export const CHECKPOINT_THREAD = 'vigil-checkpt';

export interface Checkpointer {
  /** Stops the worker and closes its connection (before the writer's connection closes). */
  stop(): Promise<void>;
}

/** Starts checkpointing `db`'s WAL on a worker thread (file databases in WAL mode only). */
export function startBackgroundCheckpoints(
  db: Database.Database,
  options: { everyMs?: number; backstopPages?: number; onError?: (message: string) => void } = {},
): Checkpointer {
  db.pragma(`wal_autocheckpoint = ${options.backstopPages ?? 8000}`);
  const worker = new Worker(`${nameThreadSource(CHECKPOINT_THREAD)}${WORKER_SOURCE}`, {
    name: CHECKPOINT_THREAD,
    eval: true,
    workerData: {
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
      path: db.name,
      everyMs: options.everyMs ?? 250,
    },
  });
  worker.unref();
  worker.on('message', (message: unknown) => options.onError?.(String(message)));
  worker.on('error', (err) => options.onError?.(String(err)));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        worker.postMessage('stop');
        await exited;
      })();
      return stopping;
    },
  };
}
