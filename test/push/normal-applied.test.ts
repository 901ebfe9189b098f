import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * The learned normal applied at a run's end (issue 78 point 3), on both runtimes and a fake clock:
 * after 20 timed runs, a run far outside their durations is a degraded result with the evidence
 * (never down by itself), the run flagged anomalous_duration; not before 20 runs, not with
 * `learn: false`; GET /v1/checks/{id}/normal shows the band.
 */
describe.each(bothRuntimes)('the learned normal applied ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);
  const MIN = 60_000;

  /** Runs of these durations, each a /start and a success. */
  const history = async (token: string, durations: number[]) => {
    for (const ms of durations) {
      await api.request('GET', `/ping/${token}/start`);
      clock.advance(ms);
      await api.request('GET', `/ping/${token}`);
      clock.advance(MIN);
    }
  };
  /** 3 to 5 minutes, as a nightly job's ordinary wobble. */
  const ordinary = (count: number) => Array.from({ length: count }, (_, i) => 3 * MIN + (i % 5) * 30_000);

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('after 20 runs, a 41-minute run of a 3-5 minute job is degraded with the evidence, and the normal is shown', async () => {
    const { checkId, token } = await kit.pushCheck();
    await history(token, ordinary(20));
    const normal = await kit.call('GET', `/v1/checks/${checkId}/normal`);
    expect(normal.status, normal.text).toBe(200);
    expect(normal.body).toEqual({
      runs_seen: 20,
      duration: { p5_ms: 3 * MIN, p50_ms: 4 * MIN, p95_ms: 5 * MIN },
      start_offset: null,
      active: true,
    });

    await history(token, [41 * MIN]);
    const [result] = await kit.results(checkId);
    expect(result).toMatchObject({
      success: true,
      latency_ms: 41 * MIN,
      error_message: 'ran 41 min; its last 20 runs took 3 min–5 min, p95 5 min',
    });
    expect((await kit.state(checkId)).state).toBe('degraded');
    const runs = (await kit.call('GET', `/v1/checks/${checkId}/runs`)).body.runs;
    expect(runs[0]).toMatchObject({
      outcome: 'success',
      duration_ms: 41 * MIN,
      flags: ['anomalous_duration'],
    });
    // An ordinary run afterwards is up again.
    await history(token, [4 * MIN]);
    expect((await kit.state(checkId)).state).toBe('up');
  });

  it('flags nothing before 20 runs, and nothing with learn: false', async () => {
    const young = await kit.pushCheck();
    await history(young.token, [...ordinary(19), 41 * MIN]);
    expect((await kit.results(young.checkId))[0]).toMatchObject({ success: true, error_message: '' });

    const unlearned = await kit.pushCheck({ config: { learn: false } });
    await history(unlearned.token, [...ordinary(20), 41 * MIN]);
    expect((await kit.results(unlearned.checkId))[0]).toMatchObject({ success: true, error_message: '' });
    const normal = await kit.call('GET', `/v1/checks/${unlearned.checkId}/normal`);
    expect(normal.body).toMatchObject({ runs_seen: 21, active: false });
  });

  it('answers 409 for a pull check and 404 for another tenant', async () => {
    const { checkId } = await kit.pushCheck();
    const other = await api.createTenant('Other normal');
    expect((await api.request('GET', `/v1/checks/${checkId}/normal`, { key: other.key })).status).toBe(404);
    const pull = await kit.call('POST', '/v1/checks', {
      entity_id: (await kit.call('GET', `/v1/checks/${checkId}`)).body.entity_id,
      check_type: 'http',
      target_url: 'http://127.0.0.1:9/',
      interval_seconds: 60,
      enabled: false,
    });
    expect((await kit.call('GET', `/v1/checks/${pull.body.id}/normal`)).status).toBe(409);
  });
});
