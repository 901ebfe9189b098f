import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { createPingLogService } from '../../lib/push/ping-log.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * Runs (Healthchecks' /start, then an end): the duration of a run is end − start, by run id
 * (`?rid=`), stored with the end's ping and as its result's latency_ms; a start pairs with one end
 * only; max_duration_seconds makes a slower success degraded. On a fake clock.
 */
describe.each(runtimes)('Pinging API runs ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);
  const RID_A = '6f1c2b3a-1111-4aaa-8bbb-000000000001';
  const RID_B = '6f1c2b3a-2222-4aaa-8bbb-000000000002';

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('/start then success: the run has a duration, the result latency_ms is that duration', async () => {
    const { checkId, token } = await kit.pushCheck();
    kit.expectText(await api.request('GET', `/ping/${token}/start`), 200, 'OK');
    clock.advance(95_000);
    kit.expectText(await api.request('POST', `/ping/${token}`, { rawBody: 'done' }), 200, 'OK');

    const [end, begin] = await kit.pings(checkId);
    expect(begin?.kind).toBe('start');
    expect(end).toMatchObject({ kind: 'success', duration_ms: 95_000 });
    expect((await kit.results(checkId))[0]).toMatchObject({ success: true, latency_ms: 95_000 });
    const state = await kit.state(checkId);
    expect(state.run_started_at ?? null).toBeNull();
    expect(state.state).toBe('up');
  });

  it('a start pairs with one end only: a second success has no duration', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(10_000);
    await api.request('GET', `/ping/${token}`);
    clock.advance(10_000);
    await api.request('GET', `/ping/${token}`);

    // The second success has no run to end: a plain success, its result only (not logged).
    const [end, start] = await kit.pings(checkId);
    expect([start?.kind, end?.kind, end?.duration_ms]).toEqual(['start', 'success', 10_000]);
    expect(await kit.pings(checkId)).toHaveLength(2);
    expect((await kit.results(checkId)).map((r) => r.latency_ms)).toEqual([0, 10_000]);
  });

  it('/start then /fail and /start then /<exit status>: failures with their run durations', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(4_000);
    await api.request('POST', `/ping/${token}/fail`, { rawBody: 'boom' });
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(7_000);
    await api.request('POST', `/ping/${token}/2`);

    const pings = await kit.pings(checkId);
    expect(pings.map((p) => [p.kind, p.duration_ms])).toEqual([
      ['exit', 7_000],
      ['start', undefined],
      ['fail', 4_000],
      ['start', undefined],
    ]);
    expect((await kit.results(checkId)).map((r) => [r.success, r.latency_ms, r.error_message])).toEqual([
      [false, 7_000, 'exit status 2'],
      [false, 4_000, 'failure reported to the ping URL'],
    ]);
  });

  it('?rid= pairs overlapping runs by run id; a closed run id does not pair twice', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start?rid=${RID_A}`);
    clock.advance(1_000);
    await api.request('GET', `/ping/${token}/start?rid=${RID_B}`);
    clock.advance(2_000);
    await api.request('GET', `/ping/${token}/0?rid=${RID_A}`);
    clock.advance(3_000);
    await api.request('GET', `/ping/${token}?rid=${RID_B}`);
    clock.advance(1_000);
    await api.request('GET', `/ping/${token}?rid=${RID_A}`);
    // An end without a run id does not close a run that had one.
    await api.request('GET', `/ping/${token}`);

    const ends = (await kit.pings(checkId)).filter((p) => p.kind !== 'start');
    // The last end, with no run id and no run started on the state, is a plain success: not logged.
    expect(ends.map((p) => [p.rid, p.duration_ms])).toEqual([
      [RID_A, undefined],
      [RID_B, 5_000],
      [RID_A, 3_000],
    ]);
    expect((await kit.results(checkId)).map((r) => r.latency_ms)).toEqual([0, 0, 5_000, 3_000]);
  });

  it("the log's latest ping counts a plain success (its result only), never a keyed result", async () => {
    const { checkId, token } = await kit.pushCheck();
    const cursors = createCursorSeal(async () => Buffer.alloc(32, 7));
    const pingLog = createPingLogService({
      table: api.table,
      clock,
      checkService: api.app.checkService,
      cursors,
    });
    expect(await pingLog.latest(checkId)).toBeNull();
    kit.expectText(await api.request('POST', `/ping/${token}/log`, { rawBody: 'hello' }), 200, 'OK');
    expect(await pingLog.latest(checkId)).toEqual({ at: isoTime(clock.now()), kind: 'log' });
    clock.advance(60_000);
    kit.expectText(await api.request('GET', `/ping/${token}`), 200, 'OK');
    const plainAt = isoTime(clock.now());
    expect(await pingLog.latest(checkId)).toEqual({ at: plainAt, kind: 'success' });
    expect(await kit.pings(checkId)).toHaveLength(1);
    clock.advance(60_000);
    const keyed = await api.request('POST', `/v1/checks/${checkId}/results`, {
      key: api.adminKey,
      body: { success: true, latency_ms: 5 },
    });
    expect(keyed.status, keyed.text).toBe(201);
    expect(await pingLog.latest(checkId)).toEqual({ at: plainAt, kind: 'success' });
    clock.advance(60_000);
    kit.expectText(await api.request('GET', `/ping/${token}/fail`), 200, 'OK');
    expect(await pingLog.latest(checkId)).toEqual({ at: isoTime(clock.now()), kind: 'fail' });
  });

  it('a start older than 72 hours is not paired (Healthchecks looks back 72 h)', async () => {
    const { checkId, token } = await kit.pushCheck({ interval_seconds: 30 * 86_400 });
    await api.request('GET', `/ping/${token}/start?rid=${RID_A}`);
    clock.advance(72 * 3_600_000 + 1_000);
    kit.expectText(await api.request('GET', `/ping/${token}?rid=${RID_A}`), 200, 'OK');

    expect((await kit.pings(checkId))[0]?.duration_ms).toBeUndefined();
    expect((await kit.results(checkId))[0]?.latency_ms).toBe(0);
  });

  it('max_duration_seconds: a slower run is a degraded success, a faster one plain', async () => {
    const { checkId, token } = await kit.pushCheck({ config: { max_duration_seconds: 60 } });
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(90_000);
    kit.expectText(await api.request('GET', `/ping/${token}`), 200, 'OK');
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(30_000);
    await api.request('GET', `/ping/${token}/0`);

    const [fast, slow] = await kit.results(checkId);
    expect(slow).toMatchObject({
      success: true,
      degraded: true,
      latency_ms: 90_000,
      error_message: 'the run took 90 s, longer than max_duration_seconds (60 s)',
    });
    expect(fast).toMatchObject({ success: true, latency_ms: 30_000, error_message: '' });
    expect(fast.degraded).toBeUndefined();
  });

  it("durations feed the check's latency percentiles (uptime)", async () => {
    const { checkId, token } = await kit.pushCheck();
    for (const ms of [10_000, 20_000, 30_000]) {
      await api.request('GET', `/ping/${token}/start`);
      clock.advance(ms);
      await api.request('GET', `/ping/${token}`);
    }
    const uptime = await kit.call('GET', `/v1/checks/${checkId}/uptime?window=24h`);
    expect(uptime.status, uptime.text).toBe(200);
    // Rollup histograms: within ~9% of the exact value.
    expect(uptime.body.latency_ms.p50).toBeGreaterThan(18_000);
    expect(uptime.body.latency_ms.p50).toBeLessThan(22_000);
    expect(uptime.body.latency_ms.p99).toBeGreaterThan(27_000);
  });
});
