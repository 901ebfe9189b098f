import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../platform/module-worker.ts';
import type { StreamedEntity } from '../store/change-feed.ts';
import type { WriteOp } from '../store/table.ts';
import type { SqliteWriter, WriteOutcome } from './sqlite-writer.ts';
import { decodeWriterError, type WriterReply, type WriterRequest } from './sqlite-writer-protocol.ts';

/** The sqlite table's view of its writer, wherever it runs. */
export interface WriterPort {
  commit(group: WriteOp[][]): Promise<WriteOutcome[]>;
  sweepExpired(nowSeconds: number, limit: number): Promise<{ deleted: number; changes: number }>;
  deleteChangesThrough(seq: number): Promise<void>;
  /** Stops the writer once the requests already made are answered. */
  close(): Promise<void>;
}

/** The writer on the caller's thread (in-memory databases, tests, the operator CLI). */
export function inlineWriterPort(writer: SqliteWriter): WriterPort {
  return {
    commit: async (group) => writer.commitGroup(group),
    sweepExpired: async (nowSeconds, limit) => writer.sweepExpired(nowSeconds, limit),
    deleteChangesThrough: async (seq) => writer.deleteChangesThrough(seq),
    close: async () => undefined,
  };
}

export interface WriterThreadOptions {
  /** The database file (already created and migrated). */
  path: string;
  streamEntities?: readonly StreamedEntity[];
  backgroundCheckpoints: boolean;
  /** Starts the thread (tests wrap it); default: sqlite-writer-thread.ts on a worker. */
  startWorker?: (workerData: unknown) => Worker;
}

type Request = WriterRequest extends infer R ? (R extends WriterRequest ? Omit<R, 'id'> : never) : never;

const WRITER_THREAD = new URL('./sqlite-writer-thread.ts', import.meta.url);
/** The writer's thread name (its worker and its OS thread, up to 15 bytes on Linux). */
export const WRITER_THREAD_NAME = 'vigil-writer';

/**
 * The writer on a thread of its own, with its own connection: SQLite's work for every write
 * (loads, row and index writes, the COMMIT) leaves the event loop, which keeps reading through
 * its own connection (WAL: a read sees every commit answered before it). Requests are answered
 * in the order they were made.
 *
 * A writer thread that dies fails the requests it had (a commit in progress either happened or
 * not, as SQLite guarantees; its callers hear an error, never a false success) and a new one
 * takes its place. One that dies before answering anything (it cannot open the database) is not
 * replaced: every request then fails with its error.
 */
export function startWriterThread(options: WriterThreadOptions): WriterPort {
  const workerData = {
    path: options.path,
    streamEntities: options.streamEntities ? [...options.streamEntities] : undefined,
    backgroundCheckpoints: options.backgroundCheckpoints,
  };
  const startWorker =
    options.startWorker ??
    ((data: unknown) => startModuleWorker(WRITER_THREAD, { name: WRITER_THREAD_NAME, workerData: data }));
  const waiting = new Map<number, { resolve(reply: WriterReply): void; reject(error: unknown): void }>();
  let nextId = 1;
  let broken: Error | undefined;
  let closing: Promise<void> | undefined;
  let worker: Worker;

  const watch = (current: Worker) => {
    worker = current;
    // Referenced only while a request is out, so an idle writer never keeps the process alive.
    current.unref();
    let answered = false;
    let ended = false;
    const end = (error: Error) => {
      if (ended) return;
      ended = true;
      for (const entry of waiting.values()) entry.reject(error);
      waiting.clear();
      if (closing || !answered) broken ??= error;
      else watch(startWorker(workerData));
    };
    current.on('error', (error) => end(error instanceof Error ? error : new Error(String(error))));
    current.on('exit', (code) => end(new Error(`the sqlite writer thread exited (code ${code})`)));
    current.on('message', (reply: WriterReply) => {
      answered = true;
      const entry = waiting.get(reply.id);
      if (!entry) return;
      waiting.delete(reply.id);
      if (waiting.size === 0) current.unref();
      entry.resolve(reply);
    });
  };
  watch(startWorker(workerData));

  const request = (message: Request): Promise<WriterReply> => {
    if (broken) return Promise.reject(broken);
    const id = nextId++;
    return new Promise<WriterReply>((resolve, reject) => {
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    }).then((reply) => {
      if (reply.kind === 'failed') throw decodeWriterError(reply.error);
      return reply;
    });
  };

  const expect = <K extends WriterReply['kind']>(reply: WriterReply, kind: K) => {
    if (reply.kind !== kind) throw new Error(`the sqlite writer thread answered ${reply.kind}, not ${kind}`);
    return reply as Extract<WriterReply, { kind: K }>;
  };

  return {
    async commit(group) {
      const reply = expect(await request({ kind: 'commit', group }), 'commit');
      return reply.outcomes.map((outcome) =>
        outcome.ok ? outcome : { ok: false, error: decodeWriterError(outcome.error) },
      );
    },
    async sweepExpired(nowSeconds, limit) {
      const { deleted, changes } = expect(await request({ kind: 'sweep', nowSeconds, limit }), 'sweep');
      return { deleted, changes };
    },
    async deleteChangesThrough(seq) {
      expect(await request({ kind: 'deleteChanges', seq }), 'done');
    },
    close() {
      closing ??= (async () => {
        if (!broken) {
          const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
          expect(await request({ kind: 'close' }), 'done');
          worker.ref(); // until it has exited: an unreferenced worker would let the process end first
          await exited;
        }
      })();
      return closing;
    },
  };
}
