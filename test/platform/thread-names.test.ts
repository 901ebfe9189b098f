import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProbeThreads } from '../../lib/local/probe-threads.ts';
import { nameThreadSource } from '../../lib/platform/module-worker.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';

// Vigil's worker threads name their OS threads, so `top -H` and /proc show which is which (and the
// benchmark splits the process's CPU by them, bench/threads.ts).

const dir = mkdtempSync(join(tmpdir(), 'vigil-thread-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The names of this process's threads, as the kernel reports them. */
function threadNames(): string[] {
  return readdirSync('/proc/self/task').map((tid) => {
    try {
      return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    } catch {
      return ''; // ended meanwhile
    }
  });
}

describe('thread names', () => {
  it('names each probe thread', async () => {
    const pool = startProbeThreads({ threads: 2, allowPrivate: true });
    try {
      // A probe answered by each thread: both have run their start-up code.
      await Promise.all([
        pool.prober({ check_type: 'tcp', host: '127.0.0.1', port: 1, timeout_ms: 1000 }),
        pool.prober({ check_type: 'tcp', host: '127.0.0.1', port: 1, timeout_ms: 1000 }),
      ]);
      expect(threadNames()).toEqual(expect.arrayContaining(['vigil-probe-1', 'vigil-probe-2']));
    } finally {
      await pool.close();
    }
  });

  it('names the sqlite writer thread and its checkpointer', async () => {
    const table = createSqliteTable({
      db: openSqliteDatabase(join(dir, 'named.db')),
      writerThread: true,
      backgroundCheckpoints: true,
    });
    try {
      await table.transact([{ type: 'put', item: { pk: 'p', sk: 's', entity: 'thing', schema_version: 1 } }]);
      // The checkpointer starts inside the writer thread, some time after the first write.
      await expect.poll(threadNames).toEqual(expect.arrayContaining(['vigil-writer', 'vigil-checkpt']));
    } finally {
      await table.close();
    }
  });

  it('keeps at most 15 bytes of a name, as Linux does', () => {
    expect(nameThreadSource('vigil-a-very-long-thread-name')).toContain('"vigil-a-very-lo"');
  });
});
