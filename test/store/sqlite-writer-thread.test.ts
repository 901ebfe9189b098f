import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { startModuleWorker } from '../../lib/platform/module-worker.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { startWriterThread } from '../../lib/sqlite/sqlite-writer-client.ts';
import type { WriteOp } from '../../lib/store/table.ts';

const dir = mkdtempSync(join(tmpdir(), 'vigil-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const put = (sk: string): WriteOp[] => [
  { type: 'put', item: { pk: 'p', sk, entity: 'thing', schema_version: 1 } },
];

function recordingWorkers() {
  const workers: Worker[] = [];
  const startWorker = (workerData: unknown) => {
    const worker = startModuleWorker(new URL('../../lib/sqlite/sqlite-writer-thread.ts', import.meta.url), {
      workerData,
    });
    workers.push(worker);
    return worker;
  };
  return { workers, startWorker };
}

describe('sqlite writer thread failures', () => {
  it('replaces a writer thread that dies; writes after it commit on the new one', async () => {
    const path = join(dir, 'replace.db');
    createSqliteTable({ db: openSqliteDatabase(path) }).db.close(); // creates and migrates the file
    const { workers, startWorker } = recordingWorkers();
    const writer = startWriterThread({ path, backgroundCheckpoints: false, startWorker });
    try {
      const [first] = await writer.commit([put('a')]);
      expect(first?.ok).toBe(true);
      await workers[0]?.terminate();
      const [second] = await writer.commit([put('b')]);
      expect(second?.ok).toBe(true);
      expect(workers).toHaveLength(2);
    } finally {
      await writer.close();
    }
    const table = createSqliteTable({ db: openSqliteDatabase(path) });
    expect((await table.query({ pk: 'p' })).items.map((item) => item.sk)).toEqual(['a', 'b']);
    await table.close();
  });

  it('fails every request with the error of a writer thread that cannot open its database', async () => {
    const { workers, startWorker } = recordingWorkers();
    // A directory is not a database file.
    const writer = startWriterThread({ path: dir, backgroundCheckpoints: false, startWorker });
    await expect(writer.commit([put('a')])).rejects.toThrow();
    await expect(writer.commit([put('b')])).rejects.toThrow();
    expect(workers).toHaveLength(1);
    await writer.close();
  });
});
