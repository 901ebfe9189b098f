import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import {
  groupProcesses,
  killGroup,
  listeningAddresses,
  type ServeProcess,
  signalGroup,
  startServeProcess,
} from '../support/serve-process.ts';
import { WAIT } from '../support/wait.ts';

const keyPattern = /vgl_[0-9A-Za-z]{38}/;
const dirs: string[] = [];
const started: ServeProcess[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-serve-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const proc of started.splice(0)) killGroup(proc);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts `npm start` and remembers it, so a failed test leaves no server behind. */
async function npmStart(env: Record<string, string>): Promise<ServeProcess> {
  const proc = await startServeProcess(env, { viaNpm: true });
  started.push(proc);
  return proc;
}

/** Resolves once nothing answers on the URL's port. */
async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return false;
  } catch {
    return true;
  }
}

describe('npm start', () => {
  it('starts through npm, prints a key and serves GET /v1/me', async () => {
    const proc = await npmStart({ VIGIL_DATA_DIR: tempDataDir() });
    const key = keyPattern.exec(proc.stdout())?.[0];
    expect(key).toBeDefined();
    const me = await fetch(`${proc.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    signalGroup(proc, 'SIGTERM');
    await proc.exited;
  }, 120_000);

  it('listens on 127.0.0.1 only by default and prints that URL', async () => {
    const proc = await npmStart({ VIGIL_DATA_DIR: tempDataDir() });
    const url = new URL(proc.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(listeningAddresses(Number(url.port))).toEqual(['127.0.0.1']);
    // `npm start` runs the project's Node 24 (README "Requirements"), whatever Node ran npm.
    expect(proc.stdout()).toContain(`(Node v24.`);
    signalGroup(proc, 'SIGTERM');
    await proc.exited;
  }, 120_000);

  it('listens on every interface with VIGIL_HOST=0.0.0.0 and prints a URL that works from this machine', async () => {
    const proc = await startServeProcess({ VIGIL_DATA_DIR: tempDataDir(), VIGIL_HOST: '0.0.0.0' });
    started.push(proc);
    const url = new URL(proc.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(proc.stdout()).toContain(`bound to 0.0.0.0:${url.port}, every interface`);
    expect(listeningAddresses(Number(url.port))).toEqual(['0.0.0.0']);
    expect((await fetch(`${proc.url}/healthz`)).status).toBe(200);
    signalGroup(proc, 'SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 120_000);

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server within 5 s when %s reaches the npm start process, leaving no process behind',
    async (signal) => {
      const proc = await npmStart({ VIGIL_DATA_DIR: tempDataDir() });
      // npm, and under it the server (npm's shell execs the single command it runs).
      expect(groupProcesses(proc).length).toBeGreaterThanOrEqual(2);
      signalGroup(proc, signal);
      await vi.waitFor(() => expect(groupProcesses(proc)).toEqual([]), { timeout: 5_000, interval: 50 });
      expect(await refused(proc.url)).toBe(true);
      // Stopped, not killed: the runtime's last log line is there once npm's output has ended.
      const out = proc.child.stdout;
      if (out && !out.readableEnded) await new Promise((resolve) => out.once('end', resolve));
      expect(proc.stdout()).toContain('"msg":"stopped"');
    },
    120_000,
  );

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
            // The server's "100 Continue" says it holds the request.
            expect: '100-continue',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      // Send half the body, signal the server, and once it says it is shutting down, finish the body.
      req.once('continue', () => {
        req.write(body.slice(0, 5));
        signalGroup(proc, 'SIGTERM');
        vi.waitFor(() => expect(proc.stdout()).toContain('shutting down'), WAIT).then(
          () => req.end(body.slice(5)),
          reject,
        );
      });
    });
    expect(await response).toBe(201);
    expect(await proc.exited).toBe(0);
  }, 120_000);

  it('exits within 5 s on SIGTERM even when a request never finishes', async () => {
    const proc = await startServeProcess({ VIGIL_DATA_DIR: tempDataDir() });
    started.push(proc);
    const url = new URL(proc.url);
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    // A request whose body never comes: the server's "100 Continue" says it holds the request.
    const continued = new Promise((resolve) => socket.once('data', resolve));
    socket.write(
      `POST /v1/auth/keys HTTP/1.1\r\nHost: ${url.host}\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n`,
    );
    expect(String(await continued)).toMatch(/^HTTP\/1\.1 100 Continue/);
    const signalled = Date.now();
    signalGroup(proc, 'SIGTERM');
    expect(await proc.exited).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(proc.stdout()).toContain('shutdown took too long');
    socket.destroy();
  }, 120_000);
});
