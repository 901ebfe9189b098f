import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callServer,
  killGroup,
  type ServeProcess,
  signalGroup,
  startServeProcess,
} from '../support/serve-process.ts';
import { runToEnd } from './run-to-end.ts';

/**
 * Issue 36 item 8: `vigil backup` under a write load and `vigil restore` into a fresh data dir keep
 * every acknowledged result; restore refuses a running server's data dir and a file that is not a
 * Vigil database; a second server on one data dir refuses to start, and a kill -9 leaves no stale lock.
 */

const dirs: string[] = [];
const started: ServeProcess[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-backup-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const proc of started.splice(0)) killGroup(proc);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function serve(dataDir: string): Promise<ServeProcess> {
  const proc = await startServeProcess({ VIGIL_DATA_DIR: dataDir });
  started.push(proc);
  return proc;
}

/** Runs an entry point on `dataDir` to its end (bounded), answering its exit code and output. */
function run(script: string, args: string[], dataDir: string) {
  return runToEnd(script, args, { PORT: '0', VIGIL_DATA_DIR: dataDir, VIGIL_LOG_LEVEL: 'warn' }, 90_000);
}

async function resultIds(base: string, key: string, checkId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < 500; page += 1) {
    const res = await callServer(
      base,
      key,
      'GET',
      `/v1/checks/${checkId}/results?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status).toBe(200);
    for (const r of res.body.results as { id: string }[]) ids.add(r.id);
    cursor = res.body.next_cursor;
    if (!cursor) break;
  }
  return ids;
}

describe('vigil backup and restore', () => {
  it('backs up under a write load and restores into a fresh data dir with every acknowledged result', async () => {
    const source = tempDir();
    const proc = await serve(source);
    const key = /vgl_[0-9A-Za-z]{38}/.exec(proc.stdout())?.[0] ?? '';
    await callServer(proc.url, key, 'POST', '/v1/blueprints', { slug: 'agent', name: 'Agent' });
    const entity = await callServer(proc.url, key, 'POST', '/v1/blueprints/agent/entities', {
      slug: 'host-1',
      name: 'Host 1',
    });
    const check = await callServer(proc.url, key, 'POST', '/v1/checks', {
      entity_id: entity.body.id,
      check_type: 'push',
      failure_threshold: 1,
      interval_seconds: 3600,
    });
    expect(check.status).toBe(201);
    const checkId: string = check.body.id;

    const acknowledged: string[] = [];
    let writing = true;
    const worker = async (w: number) => {
      for (let i = 0; writing && i < 100_000; i += 1) {
        const res = await callServer(proc.url, key, 'POST', `/v1/checks/${checkId}/results`, {
          success: (i + w) % 4 !== 0,
          latency_ms: i,
        });
        if (res.status === 201) acknowledged.push(res.body.id);
      }
    };
    const writers = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    try {
      await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(300);
      // Every result acknowledged before the backup starts must be in it; writes go on meanwhile.
      const before = acknowledged.length;
      const file = join(tempDir(), 'vigil-backup.db');
      const backup = run('bin/vigil.ts', ['backup', file], source);
      const done = await backup;
      expect(done.stderr).toBe('');
      expect(done.code).toBe(0);
      expect(done.stdout).toContain(`to ${file}`);
      // The writes really overlapped the backup.
      expect(acknowledged.length).toBeGreaterThan(before);
      writing = false;
      await writers;
      const mustHave = acknowledged.slice(0, before);

      const target = tempDir();
      const restored = await run('bin/vigil.ts', ['restore', file], target);
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      signalGroup(proc, 'SIGTERM');
      await proc.exited;

      const back = await serve(target);
      const ids = await resultIds(back.url, key, checkId);
      expect(mustHave.filter((id) => !ids.has(id))).toEqual([]);
      signalGroup(back, 'SIGTERM');
      await back.exited;
    } finally {
      writing = false;
      await writers.catch(() => undefined);
    }
  }, 240_000);

  it('refuses to restore into a data dir a server holds, and a file that is not a Vigil database', async () => {
    const dataDir = tempDir();
    const proc = await serve(dataDir);
    const file = join(tempDir(), 'backup.db');
    expect((await run('bin/vigil.ts', ['backup', file], dataDir)).code).toBe(0);

    const refused = await run('bin/vigil.ts', ['restore', file], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: another Vigil process \(pid \d+\) is using the data directory/);

    const junk = join(tempDir(), 'junk.db');
    writeFileSync(junk, 'not a database at all, but long enough to look like a header...'.repeat(20));
    const notVigil = await run('bin/vigil.ts', ['restore', junk], tempDir());
    expect(notVigil.code).toBe(2);
    expect(notVigil.stderr).toContain('is not a Vigil database');
    signalGroup(proc, 'SIGTERM');
    await proc.exited;
  }, 180_000);
});

describe('one server per data dir', () => {
  it('refuses a second start with one line and a non-zero exit, and starts again after a kill -9', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir);
    const second = await run('bin/serve.ts', [], dataDir);
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      `another Vigil process (pid ${first.child.pid}) is using the data directory ${dataDir}: stop it first, or set VIGIL_DATA_DIR to another directory`,
    ]);
    // A kill -9 leaves the lock file behind but not its lock: the next start takes it.
    first.child.kill('SIGKILL');
    await first.exited;
    const again = await serve(dataDir);
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    signalGroup(again, 'SIGTERM');
    expect(await again.exited).toBe(0);
  }, 180_000);
});
