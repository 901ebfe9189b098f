import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  callServer,
  type ServeProcess,
  servedPushCheck,
  signalGroup,
  startServeProcess,
} from '../support/serve-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-durability-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function allPages(base: string, key: string, path: string, field: string) {
  const out: { id: string; [k: string]: unknown }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page += 1) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await callServer(
      base,
      key,
      'GET',
      `${path}${sep}limit=200${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status).toBe(200);
    const items = Array.isArray(res.body) ? res.body : res.body[field];
    out.push(...items);
    cursor = Array.isArray(res.body) ? null : res.body.next_cursor;
    if (!cursor) break;
  }
  return out;
}

describe('push durability', () => {
  it('keeps every acknowledged result across a SIGKILL during a burst, without duplicated transitions', async () => {
    let proc: ServeProcess = await startServeProcess({ VIGIL_DATA_DIR: dataDir });
    const key = /vgl_[0-9A-Za-z]{38}/.exec(proc.stdout())?.[0] ?? '';
    const base = proc.url;
    const checkId = await servedPushCheck(
      base,
      key,
      { slug: 'agent', name: 'Agent' },
      { slug: 'host-1', name: 'Host 1' },
    );

    const acknowledged = new Set<string>();
    let sent = 0;
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; i < 2000 && !killed; i += 1) {
        sent += 1;
        try {
          const res = await callServer(base, key, 'POST', `/v1/checks/${checkId}/results`, {
            success: (i + w) % 3 !== 0,
            latency_ms: i,
          });
          if (res.status === 201) acknowledged.add(res.body.id);
        } catch {
          return; // connection reset by the kill: not acknowledged
        }
        if (acknowledged.size >= 400 && !killed) {
          killed = true;
          proc.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    expect(await proc.exited).toBeNull();
    expect(acknowledged.size).toBeGreaterThanOrEqual(400);

    proc = await startServeProcess({ VIGIL_DATA_DIR: dataDir });
    try {
      const stored = await allPages(proc.url, key, `/v1/checks/${checkId}/results`, 'results');
      const storedIds = new Set(stored.map((r) => r.id));
      const missing = [...acknowledged].filter((id) => !storedIds.has(id));
      expect(missing).toEqual([]);
      expect(stored.length).toBeLessThanOrEqual(sent);

      const transitions = await allPages(proc.url, key, `/v1/checks/${checkId}/transitions`, 'transitions');
      const chain = transitions
        .filter((t) => t.kind === 'check')
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((t) => [String(t.from_state), String(t.to_state)] as const);
      expect(chain.length).toBeGreaterThan(2);
      for (let i = 1; i < chain.length; i += 1) {
        // A duplicated transition would repeat a move (down->up twice) and break the chain.
        expect(chain[i]?.[0]).toBe(chain[i - 1]?.[1]);
      }
      const checkNow = await callServer(proc.url, key, 'GET', `/v1/checks/${checkId}`);
      expect(checkNow.body.state).toBe(chain.at(-1)?.[1]);
    } finally {
      signalGroup(proc, 'SIGTERM');
      await proc.exited;
    }
  }, 180_000);
});
