import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { slotLocationResults } from '../../lib/checks/probing.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { keyFile, killAgents, startAgent, startHttpTarget } from '../support/agent-process.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { startHttpFront } from '../support/http-front.ts';
import { killGroup, type ServeProcess, signalGroup, startServeProcess } from '../support/serve-process.ts';
import { newLocation } from './agent-routes-fixtures.ts';

/**
 * The real agent (`vigil agent`, a child process) against the real servers: the local runtime as
 * `bin/serve.ts` in its own process, and the cloud runtime (the Lambda harness over DynamoDB
 * Local and fauxqs) behind an HTTP front. A located check's slot puts the office's job; the agent
 * leases it, probes a target on 127.0.0.1 and posts the result, which is stored and decides the slot.
 */

/** Bounded waits on real processes: a probe, a post, the long-poll's next read. */
const PROCESS_WAIT = { timeout: 30_000, interval: 200 } as const;

// biome-ignore lint/suspicious/noExplicitAny: API answers are inspected freely
type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

function caller(base: string, key: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

async function newEntity(call: Call): Promise<string> {
  const bp = await call('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
  expect([201, 409]).toContain(bp.status);
  const entity = await call('POST', '/v1/blueprints/service/entities', {
    slug: 'intranet',
    name: 'Intranet',
  });
  expect(entity.status).toBe(201);
  return entity.body.id;
}

/** The check's decided results, newest first. */
async function decided(
  call: Call,
  checkId: string,
): Promise<{ success: boolean; checked_at: string; locations?: unknown[] }[]> {
  const res = await call('GET', `/v1/checks/${checkId}/results`);
  expect(res.status).toBe(200);
  return res.body.results;
}

/** Office's part in a slot it probed the target up from. */
const officeUp = expect.objectContaining({ location: 'office', outcome: 'up', status_code: 200 });

let target: Awaited<ReturnType<typeof startHttpTarget>>;
beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(() => target?.close());
afterEach(() => killAgents());

describe('the real agent against the local server process', () => {
  let proc: ServeProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-agent-serve-'));
  afterAll(async () => {
    if (proc) {
      signalGroup(proc, 'SIGTERM');
      await proc.exited;
      killGroup(proc);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('probes its location’s job against a 127.0.0.1 target; the result is stored and decides the slot', async () => {
    proc = await startServeProcess({ VIGIL_DATA_DIR: dataDir });
    const adminKey = /vgl_[0-9A-Za-z]{38}/.exec(proc.stdout())?.[0] ?? '';
    const call = caller(proc.url, adminKey);
    const office = await call('POST', '/v1/locations', { name: 'office', kind: 'agent' });
    expect(office.status).toBe(201);
    const check = await call('POST', '/v1/checks', {
      entity_id: await newEntity(call),
      check_type: 'http',
      target_url: target.url('/ok?from=serve'),
      interval_seconds: 10,
      timeout_ms: 3000,
      locations: ['office'],
    });
    expect(check.status, JSON.stringify(check.body)).toBe(201);

    startAgent(['--url', proc.url, '--key-file', keyFile(office.body.key), '--max-backoff', '1']);

    await vi.waitFor(async () => {
      const results = await decided(call, check.body.id);
      expect(results[0]).toMatchObject({ success: true, locations: [officeUp] });
    }, PROCESS_WAIT);
    expect(target.hits('/ok')).toBeGreaterThanOrEqual(1);
  });
});

describe('the real agent against the cloud runtime behind an HTTP front', () => {
  let api: LambdaHarness;
  let front: { url: string; close(): Promise<void> };
  const clock = createFakeClock(Date.now());
  beforeAll(async () => {
    api = await startLambdaHarness({ clock, env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    front = await startHttpFront(api);
  });
  afterAll(async () => {
    await front?.close();
    await api?.close();
  });

  it('probes its location’s job against a 127.0.0.1 target; the result is stored and decides the slot', async () => {
    const office = await newLocation(api, 'office');
    const call = caller(front.url, api.adminKey);
    const created = await call('POST', '/v1/checks', {
      entity_id: await newEntity(call),
      check_type: 'http',
      target_url: target.url('/ok?from=cloud'),
      interval_seconds: 60,
      timeout_ms: 3000,
      locations: ['office'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const checkId: string = created.body.id;
    const slot = Date.parse((await call('GET', `/v1/checks/${checkId}`)).body.next_run_at);
    // The slot's minute: the generator claims it, the worker fans it out (the office's job).
    clock.set(slot);
    await api.runGenerator(slot);
    await api.runProbeJobs();

    startAgent(['--url', front.url, '--key-file', keyFile(office.key), '--max-backoff', '1']);

    await vi.waitFor(async () => {
      const stored = await slotLocationResults(api.table, checkId, slot);
      expect(stored).toEqual([
        expect.objectContaining({ location: 'office', success: true, status_code: 200 }),
      ]);
    }, PROCESS_WAIT);
    // One location, quorum 1: office's report decided the slot.
    expect(await decided(call, checkId)).toEqual([
      expect.objectContaining({
        success: true,
        checked_at: new Date(slot).toISOString(),
        locations: [officeUp],
      }),
    ]);
    expect(target.hits('/ok')).toBeGreaterThanOrEqual(1);
  });
});
