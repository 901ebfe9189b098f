import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbeJob } from '../../lib/checks/probe-job.ts';
import { recordPushStart } from '../../lib/checks/probing.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { deadmanTicks } from '../support/deadman-tick.ts';

/**
 * The dead man's switch driven by a fake clock: the generator finds silent push checks through
 * the due index and the job runner records the synthetic failures, as both runtimes do on their tick.
 */
describe.each(runtimes)("the dead man's switch ($runtime runtime)", ({ start }) => {
  const clock = createFakeClock(Date.parse('2026-03-01T12:00:00.000Z'));
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });

  const { dueClaims, tick } = deadmanTicks(() => api, clock);

  const newPushCheck = async (body: Record<string, unknown> = {}) => {
    const res = await call('POST', '/v1/checks', { entity_id: entityId, check_type: 'push', ...body });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };

  beforeAll(async () => {
    api = await start({ clock });
    await call('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
    entityId = (await call('POST', '/v1/blueprints/cron/entities', { slug: 'backup', name: 'Backup' })).body
      .id;
  });
  afterAll(async () => {
    await api.close();
  });

  it('leaves a push check that never received a result unknown, however long it is silent', async () => {
    const id = await newPushCheck({ interval_seconds: 60, failure_threshold: 1 });
    clock.advance(3_600_000);
    await tick();
    const check = (await call('GET', `/v1/checks/${id}`)).body;
    expect(check.state).toBe('unknown');
    expect(check.next_run_at).toBeNull();
    expect((await call('GET', `/v1/checks/${id}/results`)).body.results).toEqual([]);
  });

  it('goes down within grace + one interval of silence and recovers on the next heartbeat', async () => {
    const id = await newPushCheck({ interval_seconds: 60, failure_threshold: 1 });
    await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
    const lastBeat = clock.now();

    // Inside the grace window (default 2 x interval = 120 s): nothing happens.
    clock.advance(119_000);
    await tick();
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');

    // Past it: one synthetic failure, and with threshold 1 the check is down.
    clock.advance(2_000);
    await tick();
    const down = (await call('GET', `/v1/checks/${id}`)).body;
    expect(down.state).toBe('down');
    expect(clock.now() - lastBeat).toBeLessThanOrEqual(120_000 + 60_000);
    const results = (await call('GET', `/v1/checks/${id}/results`)).body.results;
    expect(results[0]).toMatchObject({ success: false });
    expect(results[0].error_message).toMatch(/no result received for \d+ s/);

    const entity = (await call('GET', '/v1/status')).body.entities.find(
      (e: { id: string }) => e.id === entityId,
    );
    expect(entity.state).toBe('down');

    await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
    const transitions = (await call('GET', `/v1/checks/${id}/transitions`)).body;
    const list = Array.isArray(transitions) ? transitions : transitions.transitions;
    const checkTransitions = list.filter((t: { kind: string }) => t.kind === 'check');
    expect(checkTransitions.map((t: { to_state: string }) => t.to_state)).toEqual(['up', 'down', 'up']);
  });

  it('records one synthetic failure per interval while the agent stays silent, never a burst', async () => {
    const id = await newPushCheck({
      interval_seconds: 60,
      failure_threshold: 3,
      config: { grace_seconds: 90 },
    });
    await call('POST', `/v1/checks/${id}/results`, { success: true, latency_ms: 1 });
    clock.advance(91_000);
    await tick();
    clock.advance(60_000);
    await tick();
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
    clock.advance(60_000);
    await tick();
    // Three synthetic failures, one per interval: threshold 3 reached.
    expect((await call('GET', `/v1/checks/${id}`)).body).toMatchObject({
      state: 'down',
      consecutive_failures: 3,
    });

    // Ten silent intervals pass with nobody ticking (the scheduler was down): one failure, not ten.
    clock.advance(600_000);
    await tick();
    await tick();
    const results = (await call('GET', `/v1/checks/${id}/results?limit=500`)).body.results;
    expect(results.filter((r: { success: boolean }) => !r.success)).toHaveLength(4);
  });

  it('does not record a synthetic failure for a deadline claimed before a push arrived', async () => {
    const id = await newPushCheck({ interval_seconds: 60, failure_threshold: 1 });
    await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    clock.advance(121_000);
    // Claim the deadline, then let the agent report before the job runs.
    const claims = (await dueClaims()).filter((c) => c.job.check_id === id);
    expect(claims).toHaveLength(1);
    const [claim] = claims;
    if (!claim) return;
    await api.table.transact([claim.claim]);
    await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    expect((await runProbeJob(claim.job, api.app.jobRunner)).status).toBe('skipped');
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
  });

  it('does not make a missed deadline due again when a run starts (/start) after its failure', async () => {
    const id = await newPushCheck({ interval_seconds: 60, failure_threshold: 1 });
    await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    const beat = clock.now();
    clock.advance(121_000);
    await tick();
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('down');
    // The late job starts now: the deadline stays the next interval's, the missed one is not replayed.
    clock.advance(1000);
    const started = await recordPushStart(
      { table: api.table, checks: api.app.jobRunner.checks, dueShards: api.app.config.dueShards },
      { tenantId: api.tenantId, checkId: id, startedAtMs: clock.now() },
    );
    expect(started).toEqual({ status: 'started', nextRunAt: new Date(beat + 180_000).toISOString() });
    expect((await dueClaims()).filter((c) => c.job.check_id === id)).toEqual([]);
    expect((await call('GET', `/v1/checks/${id}`)).body).toMatchObject({
      state: 'down',
      next_run_at: new Date(beat + 180_000).toISOString(),
    });
  });
});
