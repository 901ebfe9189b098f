import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killGroup, startServeProcess } from '../support/serve-process.ts';
import { runToEnd } from './run-to-end.ts';

/** Runs `bin/serve.ts` (what `npm start` runs) to its end, with the bound a start takes at most. */
function serveUntilExit(env: Record<string, string>) {
  return runToEnd('bin/serve.ts', [], { VIGIL_LOG_LEVEL: 'info', ...env }, 60_000);
}

describe('a busy port', () => {
  let holder: Server;
  let port: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-busy-port-'));

  beforeAll(async () => {
    holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const address = holder.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    port = address.port;
  });
  afterAll(async () => {
    holder.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints one line naming PORT and exits non-zero, without a stack trace', async () => {
    const run = await serveUntilExit({
      PORT: String(port),
      VIGIL_HOST: '127.0.0.1',
      VIGIL_DATA_DIR: dataDir,
    });
    expect(run.code).toBe(1);
    const line = `Port ${port} is in use; set PORT to another port, e.g. PORT=${port + 1} npm start`;
    expect(run.stderr).toBe(`${line}\n`);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at /m);
    expect(run.stdout).not.toMatch(/vgl_/);
  }, 90_000);

  it('leaves the first tenant unmade, so the next start prints its key', async () => {
    const proc = await startServeProcess({ VIGIL_DATA_DIR: dataDir });
    try {
      expect(proc.stdout()).toMatch(/vgl_[0-9A-Za-z]{38}/);
    } finally {
      killGroup(proc);
    }
  }, 90_000);
});
