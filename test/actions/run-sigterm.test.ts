import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * Issue 36 item 7: a manual action run still in flight when the server gets SIGTERM is recorded:
 * after a restart its execution reads `interrupted` (or completed), never absent.
 */

const dirs: string[] = [];
const started: ServeProcess[] = [];
afterEach(() => {
  for (const proc of started.splice(0)) killGroup(proc);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function serve(dataDir: string): Promise<ServeProcess> {
  const proc = await startServeProcess({ VIGIL_DATA_DIR: dataDir, VIGIL_EGRESS_ALLOW: '127.0.0.1/32' });
  started.push(proc);
  return proc;
}

describe('a manual action run at SIGTERM', () => {
  it('reads interrupted after the restart, never absent', async () => {
    // A receiver that takes the request and never answers (the slow endpoint).
    const held: ServerResponse[] = [];
    const receiver = createServer((_req: IncomingMessage, res) => {
      held.push(res);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-run-sigterm-'));
    dirs.push(dataDir);
    try {
      const proc = await serve(dataDir);
      const key = /vgl_[0-9A-Za-z]{38}/.exec(proc.stdout())?.[0] ?? '';
      const action = await callServer(proc.url, key, 'POST', '/v1/actions', {
        name: 'deploy',
        url: `http://127.0.0.1:${port}/hook`,
        trigger_type: 'manual',
        timeout_ms: 15_000,
      });
      expect(action.status).toBe(201);
      // Not awaited: the answer never comes, the server stops under it.
      const run = callServer(proc.url, key, 'POST', `/v1/actions/${action.body.id}/run`, {}).catch(
        () => undefined,
      );
      await expect.poll(() => held.length, { timeout: 30_000 }).toBe(1);
      signalGroup(proc, 'SIGTERM');
      await proc.exited;
      await run;

      const again = await serve(dataDir);
      const list = await callServer(again.url, key, 'GET', `/v1/actions/${action.body.id}/executions`);
      expect(list.status).toBe(200);
      expect(list.body.executions).toHaveLength(1);
      expect(list.body.executions[0]).toMatchObject({
        trigger: 'manual',
        dispatch_status: 'interrupted',
        error_message: expect.stringMatching(/^interrupted: /),
      });
      signalGroup(again, 'SIGTERM');
      await again.exited;
    } finally {
      for (const res of held) res.destroy();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 180_000);
});
