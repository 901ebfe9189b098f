import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * A scheduled run's start (issue 78 point 2, DECISIONS.md "Cron runs (wave 6)"), on both runtimes
 * and a fake clock: early_seconds tells a run that starts too long before its scheduled time as a
 * failed result, and the learned normal keeps the runs' start offsets and flags a start far from
 * them as degraded, with the evidence.
 */
describe.each(bothRuntimes)('run starts ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-04-01T02:05:00.000Z'));
  const kit = pingKit(() => api);
  const nightly = { cron: '0 2 * * *', timezone: 'UTC' };
  // biome-ignore lint/suspicious/noExplicitAny: runs are inspected freely
  const runs = async (checkId: string): Promise<any[]> =>
    (await kit.call('GET', `/v1/checks/${checkId}/runs`)).body.runs;
  const ping = (token: string, suffix = '') => api.request('GET', `/ping/${token}${suffix}`);
  const scheduled = (config: Record<string, unknown>) =>
    kit.pushCheck({ interval_seconds: undefined, config: { schedule: nightly, ...config } });
  const at = (iso: string) => clock.set(Date.parse(iso));

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('early_seconds: a run starting 40 min before its 02:00 schedule is a failed result, and its run is flagged early', async () => {
    at('2026-04-01T02:05:00.000Z');
    const { checkId, token } = await scheduled({ early_seconds: 600 });
    await ping(token);
    at('2026-04-02T01:20:00.000Z');
    await ping(token, '/start');
    expect((await kit.results(checkId))[0]).toMatchObject({
      success: false,
      error_message: 'started 40 min before its 02:00 schedule',
    });
    expect((await kit.state(checkId)).state).toBe('down');
    at('2026-04-02T01:30:00.000Z');
    await ping(token);
    expect((await runs(checkId))[0]).toMatchObject({
      outcome: 'success',
      duration_ms: 600_000,
      flags: ['early'],
    });

    // Within the allowance (5 min early), or after the time: no failure.
    at('2026-04-03T01:55:00.000Z');
    await ping(token, '/start');
    at('2026-04-03T02:10:00.000Z');
    await ping(token);
    expect((await kit.results(checkId)).map((r) => r.success)).toEqual([true, true, false, true]);
    expect((await runs(checkId))[0]).toMatchObject({ outcome: 'success', flags: [] });
  });

  it("early_seconds names the schedule's time on its own clock", async () => {
    at('2026-04-01T02:05:00.000Z');
    const { checkId, token } = await kit.pushCheck({
      interval_seconds: undefined,
      config: { schedule: { cron: '0 2 * * *', timezone: 'Europe/Berlin' }, early_seconds: 60 },
    });
    // 02:00 in Berlin (summer time) is 00:00 UTC.
    at('2026-04-02T23:30:00.000Z');
    await ping(token, '/start');
    expect((await kit.results(checkId))[0]).toMatchObject({
      success: false,
      error_message: 'started 30 min before its 02:00 Europe/Berlin schedule',
    });
  });

  it('early_seconds is refused in words without a schedule', async () => {
    const { checkId } = await kit.pushCheck();
    const entityId = (await kit.call('GET', `/v1/checks/${checkId}`)).body.entity_id;
    const res = await kit.call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      config: { early_seconds: 600 },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details[0]).toMatchObject({
      path: 'config.early_seconds',
      message: expect.stringMatching(/^early_seconds needs a schedule/),
    });
  });

  it('learns the start offsets of 20 runs and flags a start far from them as degraded, with the evidence', async () => {
    at('2026-05-01T02:05:00.000Z');
    const { checkId, token } = await scheduled({});
    for (let day = 1; day <= 20; day += 1) {
      const date = `2026-05-${String(day + 1).padStart(2, '0')}`;
      at(`${date}T02:0${day % 3}:00.000Z`);
      await ping(token, '/start');
      clock.advance(300_000);
      await ping(token);
    }
    const normal = (await kit.call('GET', `/v1/checks/${checkId}/normal`)).body;
    expect(normal).toMatchObject({
      runs_seen: 20,
      active: true,
      start_offset: { p5_s: 0, p50_s: 60, p95_s: 120 },
    });
    expect((await kit.results(checkId))[0]).toMatchObject({ success: true, error_message: '' });

    at('2026-05-22T02:45:00.000Z');
    await ping(token, '/start');
    clock.advance(300_000);
    await ping(token);
    const [result] = await kit.results(checkId);
    expect(result).toMatchObject({
      success: true,
      degraded: true,
      error_message:
        'started 45 min after the scheduled time; its runs usually start 0 s–2 min after the scheduled time',
    });
    expect((await runs(checkId))[0]).toMatchObject({ outcome: 'success', flags: ['anomalous_start'] });
    expect((await kit.state(checkId)).state).toBe('degraded');
  });
});
