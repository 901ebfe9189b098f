import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellJob } from '../../lib/checks/runner/cell-runner.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { manualTime, startTarget, type Target } from './scheduler-helpers.ts';

// A process dies (kill -9) after a cell slot's results are stored and before its state moves are
// written. The seam freezes the slot's job exactly there; the "kill" stops the runtime with the job
// still frozen (it writes nothing more and stays queued, as after a kill), and a new runtime starts
// on the same SQLite file after the slot's time has passed, when the reload drops the job.

const tls = createTlsFixtures();
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-crash-'));
const config = {
  ...loadConfig('local', {
    VIGIL_LOG_LEVEL: 'info',
    VIGIL_RATE_LIMIT_RPS: '0',
    VIGIL_AUTH_FAILURE_LIMIT: '0',
    VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
  }),
  dataDir,
  port: 0,
};
let receiver: Receiver;
let target: Target;
let healthy = true;

beforeAll(async () => {
  receiver = await startReceiver(tls.valid, 'whsec-crash');
  target = await startTarget(() => (healthy ? 200 : 503));
});
afterAll(async () => {
  await receiver?.close();
  await target?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Time = ReturnType<typeof manualTime>;

async function start(
  time: Time,
  afterResultsStored?: (job: CellJob) => Promise<void>,
): Promise<LocalRuntime> {
  const runtime = await startLocalRuntime({
    config,
    logger: silentLogger,
    clock: time.clock,
    host: '127.0.0.1',
    scheduler: { timers: time.timers },
    actionSchedule: false,
    egress: { ca: [tls.caCert] },
    ...(afterResultsStored ? { cellFaults: { afterResultsStored } } : {}),
  });
  time.settleWhile(() => runtime.scheduler.stats().running > 0);
  return runtime;
}

function client(runtime: LocalRuntime, key: string) {
  return async (method: string, path: string, status: number | number[], body?: unknown) => {
    const res = await fetch(`${runtime.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    expect([status].flat(), text).toContain(res.status);
    // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
    return (text ? JSON.parse(text) : undefined) as any;
  };
}

const alerts = () =>
  receiver.received
    .filter((r) => r.path === '/hook')
    .map((r) => JSON.parse(r.body.toString('utf8')) as { check_id?: string; to_state?: string });

describe('a kill -9 between a cell slot results and its state moves', () => {
  it('applies the stored slot at the restart: the threshold-2 check with two stored failures goes down once, alerting once', async () => {
    // Prepare: a threshold-2 check, up, with a webhook on it; the seam freezes its second failing slot.
    const before = manualTime();
    let failingSlots = 0;
    let frozen: CellJob | undefined;
    let kill: (reason: Error) => void = () => undefined;
    const first = await start(before, async (job) => {
      if (healthy) return;
      failingSlots += 1;
      if (failingSlots < 2) return;
      frozen = job;
      await new Promise<void>((_, reject) => {
        kill = reject;
      });
    });
    const key = first.bootstrapKey ?? '';
    let api = client(first, key);
    await api('POST', '/v1/blueprints', 201, { slug: 'svc', name: 'Service' });
    const entity = await api('POST', '/v1/blueprints/svc/entities', 201, { slug: 'db', name: 'Orders DB' });
    const check = await api('POST', '/v1/checks', 201, {
      entity_id: entity.id,
      check_type: 'http',
      name: 'Orders health',
      target_url: target.url,
      interval_seconds: 5,
      failure_threshold: 2,
    });
    await api('POST', `/v1/checks/${check.id}/policy`, [200, 201], { cooldown_seconds: 0 });
    await api('POST', `/v1/checks/${check.id}/policy/channels`, 201, {
      channel_type: 'webhook',
      config: { url: `${receiver.origin}/hook`, secret: 'whsec-crash' },
    });
    await before.until(
      async () => (await api('GET', `/v1/checks/${check.id}`, 200)).state === 'up',
      'check up',
    );
    healthy = false;
    await before.until(() => frozen, 'the second failing slot at the seam', 20_000);
    // The first failure moved the check (one failure of two); the second's results are stored, not applied.
    expect(await api('GET', `/v1/checks/${check.id}`, 200)).toMatchObject({ state: 'up' });
    const stopping = first.stop();
    kill(new Error('killed'));
    await stopping;

    // Act: the target is back; the process restarts after the frozen slot (and the next) has passed.
    healthy = true;
    const after = manualTime(before.clock.now() + 20_000);
    const second = await start(after);
    try {
      api = client(second, key);
      await second.drainChanges();
      await second.notifyRunner.idle();

      // Assess: the down, its transition, its incident and its alert, once each; then the recovery.
      const down = await after.until(
        async () => (await api('GET', `/v1/checks/${check.id}/transitions`, 200)).transitions,
        'the re-applied transitions',
      );
      expect(down.map((t: { to_state: string }) => t.to_state)).toEqual(['down', 'up']);
      const recovered = await after.until(async () => {
        const read = await api('GET', `/v1/checks/${check.id}/transitions`, 200);
        return read.transitions.length >= 3 ? read.transitions : undefined;
      }, 'the recovery');
      expect(recovered.map((t: { to_state: string }) => t.to_state)).toEqual(['up', 'down', 'up']);
      await second.drainChanges();
      await after.until(() => alerts().length >= 2 && alerts(), 'the alert and the recovery at the receiver');
      expect(alerts().map((a) => [a.check_id, a.to_state])).toEqual([
        [check.id, 'down'],
        [check.id, 'up'],
      ]);
      const { incidents } = await api('GET', `/v1/incidents?entity_id=${entity.id}`, 200);
      expect(incidents).toHaveLength(1);

      // Applying the same slot again (a crash during the catch-up) moves nothing a second time.
      const again = await second.cells.reapply(frozen as CellJob);
      expect(again).toEqual({ stored: true, transitions: [] });
      expect((await api('GET', `/v1/checks/${check.id}/transitions`, 200)).transitions).toHaveLength(3);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
