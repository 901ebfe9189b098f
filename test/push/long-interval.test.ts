import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CloudHarness,
  createEntity as createCloudEntity,
  runGeneratorMinute,
  startCloudHarness,
} from '../cloud/support.ts';
import { createEntity, jobsInFlight, manualTime } from '../local/scheduler-helpers.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';

/**
 * A monthly job: a push check with a 30-day interval and a grace of 30 days and 1 hour (longer
 * than setTimeout's largest delay, 2^31-1 ms, about 24.8 days), driven by each runtime's own
 * scheduler on a fake clock: not failed a minute before its grace window ends, failed after it.
 */
const DAY_S = 86_400;
const INTERVAL_S = 30 * DAY_S;
const GRACE_S = INTERVAL_S + 3600;
const monthly = {
  check_type: 'push',
  interval_seconds: INTERVAL_S,
  failure_threshold: 1,
  config: { grace_seconds: GRACE_S },
};

describe('a 30-day push check on the local scheduler (timer heap and tick loop on fake time)', () => {
  let api: LocalHarness;
  const time = manualTime();
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });

  beforeAll(async () => {
    api = await startLocalHarness({ clock: time.clock, scheduler: { timers: time.timers } });
    time.settleWhile(() => jobsInFlight(api.local.scheduler));
  });
  afterAll(async () => {
    await api.close();
  });

  it('is up seconds before its grace window ends and down once it has passed', async () => {
    const entity = await createEntity(api);
    const created = await call('POST', '/v1/checks', { entity_id: entity.id, ...monthly });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.id;
    expect((await call('POST', `/v1/checks/${id}/heartbeat`)).status).toBe(201);
    const beatMs = time.clock.now();

    // The clock jumps (nobody ticks while a month passes), then the scheduler's own timers run.
    time.clock.set(beatMs + GRACE_S * 1000 - 10_000);
    await time.advance(3000);
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');

    const down = await time.until(
      async () => {
        const check = (await call('GET', `/v1/checks/${id}`)).body;
        return check.state === 'down' && check;
      },
      'the synthetic failure',
      30_000,
    );
    expect(down.consecutive_failures).toBe(1);
    const [synthetic] = (await call('GET', `/v1/checks/${id}/results`)).body.results;
    expect(synthetic).toMatchObject({ success: false, synthetic: true });
    expect(Date.parse(synthetic.checked_at) - beatMs).toBe(GRACE_S * 1000);
  });
});

describe('a 30-day push check in the cloud runtime (generator schedule, probe queue, worker)', () => {
  let h: CloudHarness;

  const runMinute = () => runGeneratorMinute(h);

  beforeAll(async () => {
    h = await startCloudHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('is up minutes before its grace window ends and down once it has passed', async () => {
    const entityId = await createCloudEntity(h, 'monthly-report');
    const created = await h.api('POST', '/v1/checks', { entity_id: entityId, ...monthly });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.id;
    expect((await h.api('POST', `/v1/checks/${id}/heartbeat`)).status).toBe(201);
    const beatMs = h.clock.now();

    const deadlineMinute = Math.floor((beatMs + GRACE_S * 1000) / 60_000) * 60_000;
    h.clock.set(deadlineMinute - 3 * 60_000);
    expect(await runMinute()).toEqual([]);
    expect((await h.api('GET', `/v1/checks/${id}`)).body.state).toBe('up');

    // The minute holding the deadline sends the job, delayed to it; the worker runs it then.
    h.clock.set(deadlineMinute);
    const [job] = await runMinute();
    expect(job?.sentAtMs).toBeDefined();
    expect((job?.sentAtMs ?? 0) + (job?.delaySeconds ?? 0) * 1000).toBeGreaterThanOrEqual(
      beatMs + GRACE_S * 1000 - 1000,
    );
    expect((await h.api('GET', `/v1/checks/${id}`)).body.state).toBe('down');
    const [synthetic] = (await h.api('GET', `/v1/checks/${id}/results`)).body.results;
    expect(Date.parse(synthetic.checked_at) - beatMs).toBe(GRACE_S * 1000);
  });
});
