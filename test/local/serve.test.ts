import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { signalGroup, startServeProcess } from '../support/serve-process.ts';

const keyPattern = /vgl_[0-9A-Za-z]{38}/;
const dirs: string[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-serve-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('starts through npm, prints a key and serves GET /v1/me', async () => {
    const proc = await startServeProcess({ VIGIL_DATA_DIR: tempDataDir() }, { viaNpm: true });
    const key = keyPattern.exec(proc.stdout())?.[0];
    expect(key).toBeDefined();
    const me = await fetch(`${proc.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    signalGroup(proc, 'SIGTERM');
    await proc.exited;
  }, 120_000);

  it('prints the bootstrap key on first start only, serves /v1/me with it, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const first = await startServeProcess({ VIGIL_DATA_DIR: dataDir });
    const key = keyPattern.exec(first.stdout())?.[0];
    expect(key).toBeDefined();
    const me = await fetch(`${first.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ name: 'Local', blueprint_limit: 50 });
    signalGroup(first, 'SIGTERM');
    expect(await first.exited).toBe(0);
    // The structured log never carries the key, only the one-time banner does.
    const logLines = first
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(key);

    const second = await startServeProcess({ VIGIL_DATA_DIR: dataDir });
    expect(second.stdout()).not.toMatch(keyPattern);
    const again = await fetch(`${second.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(again.status).toBe(200);
    signalGroup(second, 'SIGINT');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('uses VIGIL_BOOTSTRAP_KEY as the first key and never writes it to the database file', async () => {
    const dataDir = tempDataDir();
    const preset = generateApiKey();
    const proc = await startServeProcess({ VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_KEY: preset });
    expect(proc.stdout()).toContain(preset);
    const created = await fetch(`${proc.url}/v1/auth/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${preset}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'grep me' }),
    });
    const newKey = ((await created.json()) as { key: string }).key;
    signalGroup(proc, 'SIGTERM');
    expect(await proc.exited).toBe(0);
    const files = readdirSync(dataDir);
    expect(files).toContain('vigil.db');
    for (const file of files) {
      const bytes = readFileSync(join(dataDir, file)).toString('latin1');
      expect(bytes).not.toContain(preset);
      expect(bytes).not.toContain(newKey);
    }
  }, 120_000);

  it('refuses to start with a malformed VIGIL_BOOTSTRAP_KEY', async () => {
    const dataDir = tempDataDir();
    await expect(
      startServeProcess({ VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_KEY: 'vgl_not-a-key' }),
    ).rejects.toThrow(/VIGIL_BOOTSTRAP_KEY/);
  }, 120_000);

  it('lets an in-flight request finish when SIGTERM arrives', async () => {
    const dataDir = tempDataDir();
    const proc = await startServeProcess({ VIGIL_DATA_DIR: dataDir });
    const key = keyPattern.exec(proc.stdout())?.[0] ?? '';
    const body = JSON.stringify({ label: 'in flight' });
    const url = new URL(`${proc.url}/v1/auth/keys`);
    const response = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      // Send half the body, signal the server, then finish the body.
      req.write(body.slice(0, 5));
      setTimeout(() => {
        signalGroup(proc, 'SIGTERM');
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 300);
    });
    expect(await response).toBe(201);
    expect(await proc.exited).toBe(0);
  }, 120_000);
});
