import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { deadmanTicks } from '../support/deadman-tick.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * A run that never ends is closed (issue 78, DECISIONS.md "Cron runs (wave 6)"), on both runtimes
 * and a fake clock: max_duration_seconds ends a run still running as `hung` (too long) through the
 * dead man's switch; a scheduled run that never started is a `missed` run at its deadline; and the
 * check's started run belongs to the runs, so one run's end leaves another open run timed and armed.
 */
describe.each(bothRuntimes)('runs closed ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);
  const { tick } = deadmanTicks(() => api, clock);
  const RID_A = '6f1c2b3a-1111-4aaa-8bbb-00000000000a';
  // biome-ignore lint/suspicious/noExplicitAny: runs are inspected freely
  const runs = async (checkId: string): Promise<any[]> =>
    (await kit.call('GET', `/v1/checks/${checkId}/runs`)).body.runs;
  const ping = (token: string, suffix = '', query = '') =>
    api.request('GET', `/ping/${token}${suffix}${query}`);

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('max_duration_seconds: a run still running that long is a failed result and its run is closed hung, too long', async () => {
    const started = clock.now();
    const { checkId, token } = await kit.pushCheck({ config: { max_duration_seconds: 600 } });
    await ping(token, '/start', `?rid=${RID_A}`);
    clock.advance(599_000);
    await tick();
    expect(await kit.results(checkId)).toEqual([]);
    clock.advance(1_000);
    await tick();

    expect((await kit.results(checkId))[0]).toMatchObject({
      success: false,
      error_message: `hung: started at ${new Date(started).toISOString().slice(0, 16).replace('T', ' ')} UTC and still running after 10 min (max_duration_seconds 600 s)`,
    });
    expect((await kit.state(checkId)).state).toBe('down');
    const [hung] = await runs(checkId);
    expect(hung).toMatchObject({
      outcome: 'hung',
      ended_at: null,
      duration_ms: null,
      flags: ['hung', 'too_long'],
    });

    // Closed: a late end no longer pairs with its start (a run of unknown duration), and the check recovers.
    clock.advance(60_000);
    await ping(token, '', `?rid=${RID_A}`);
    expect((await runs(checkId)).map((r) => [r.outcome, r.started_at, r.duration_ms, r.flags])).toEqual([
      ['success', null, null, []],
      ['hung', new Date(started).toISOString(), null, ['hung', 'too_long']],
    ]);
    expect((await kit.state(checkId)).state).toBe('up');
  });

  it('an update of max_duration_seconds or keepalive_seconds re-arms a started run’s deadline', async () => {
    clock.set(Date.parse('2026-03-05T03:00:00.000Z'));
    const { checkId, token } = await kit.pushCheck();
    await ping(token, '/start');
    // interval 3600 s: a started run may take 3600 s.
    expect((await kit.call('GET', `/v1/checks/${checkId}`)).body.next_run_at).toBe(
      '2026-03-05T04:00:00.000Z',
    );
    const capped = await kit.call('PUT', `/v1/checks/${checkId}`, { config: { max_duration_seconds: 600 } });
    expect(capped.status, capped.text).toBe(200);
    expect(capped.body.next_run_at).toBe('2026-03-05T03:10:00.000Z');
    const kept = await kit.call('PUT', `/v1/checks/${checkId}`, {
      config: { max_duration_seconds: 600, keepalive_seconds: 120 },
    });
    expect(kept.body.next_run_at).toBe('2026-03-05T03:02:00.000Z');
  });

  it('a scheduled run that never started is a missed run at its deadline, once', async () => {
    clock.set(Date.parse('2026-03-03T02:05:00.000Z'));
    const { checkId, token } = await kit.pushCheck({
      interval_seconds: undefined,
      config: { schedule: { cron: '0 2 * * *', timezone: 'UTC' }, grace_seconds: 600 },
    });
    await ping(token);
    // The next run is expected at 02:00 the next day; the deadline is 02:10.
    clock.set(Date.parse('2026-03-04T02:09:59.000Z'));
    await tick();
    expect(await kit.results(checkId)).toHaveLength(1);
    clock.set(Date.parse('2026-03-04T02:10:00.000Z'));
    await tick();
    await tick();

    expect((await kit.results(checkId))[0]).toMatchObject({
      success: false,
      error_message: 'expected at 2026-03-04 02:00 UTC (+10 min grace): no success received',
    });
    expect((await runs(checkId)).map((r) => [r.outcome, r.started_at, r.ended_at])).toEqual([
      ['missed', null, '2026-03-04T02:10:00.000Z'],
      ['success', null, '2026-03-03T02:05:00.000Z'],
    ]);
  });

  it('a late run started before the deadline is no missed run: it is running', async () => {
    clock.set(Date.parse('2026-03-10T02:05:00.000Z'));
    const { checkId, token } = await kit.pushCheck({
      interval_seconds: undefined,
      config: { schedule: { cron: '0 2 * * *', timezone: 'UTC' }, grace_seconds: 600 },
    });
    await ping(token);
    clock.set(Date.parse('2026-03-11T02:09:00.000Z'));
    await ping(token, '/start');
    clock.set(Date.parse('2026-03-11T02:10:00.000Z'));
    await tick();
    expect((await kit.results(checkId)).map((r) => r.success)).toEqual([false, true]);
    expect((await runs(checkId)).map((r) => r.outcome)).toEqual(['running', 'success']);
  });

  it("one run's end leaves another open run timed, and its deadline armed", async () => {
    clock.set(Date.parse('2026-03-20T03:00:00.000Z'));
    const { checkId, token } = await kit.pushCheck();
    await ping(token, '/start');
    clock.advance(10_000);
    await ping(token, '/start', `?rid=${RID_A}`);
    clock.advance(5_000);
    await ping(token, '', `?rid=${RID_A}`);
    clock.advance(5_000);
    await ping(token);
    // Newest start first: the run with a run id started after the one without.
    expect((await runs(checkId)).map((r) => [r.rid ?? null, r.outcome, r.duration_ms])).toEqual([
      [RID_A, 'success', 5_000],
      [null, 'success', 20_000],
    ]);

    // Started and left running while another run ends: the switch still tells it did not finish.
    await ping(token, '/start');
    clock.advance(10_000);
    await ping(token, '/start', `?rid=${RID_A}`);
    clock.advance(5_000);
    await ping(token, '', `?rid=${RID_A}`);
    clock.advance(3_600_000);
    await tick();
    expect((await kit.results(checkId))[0]).toMatchObject({
      success: false,
      error_message: expect.stringMatching(/^started at 2026-03-20 03:00:20 UTC but did not finish/),
    });
    expect((await runs(checkId))[1]).toMatchObject({ outcome: 'hung', flags: ['hung'] });
  });
});
