import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { deadmanTicks } from '../support/deadman-tick.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * keepalive_seconds (issue 78 point 2), on both runtimes and a fake clock: a started run with no
 * /start or /log for that long is hung. The dead man's switch (the generator finds the deadline
 * through the due index, the job records it) tells it as a failed result, and the run shows hung.
 */
describe.each(bothRuntimes)('keepalive_seconds ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);
  // biome-ignore lint/suspicious/noExplicitAny: runs are inspected freely
  const runs = async (checkId: string): Promise<any[]> =>
    (await kit.call('GET', `/v1/checks/${checkId}/runs`)).body.runs;

  const { tick } = deadmanTicks(() => api, clock);

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('a run silent past its keepalive after a /log is a failed result saying since when, and shows hung', async () => {
    // interval 3600 s: a started run may take 3600 s; the keepalive asks for a sign every 300 s.
    const { checkId, token } = await kit.pushCheck({ config: { keepalive_seconds: 300 } });
    await api.request('GET', `/ping/${token}`);
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(240_000);
    await api.request('POST', `/ping/${token}/log`, { rawBody: '50% copied' });
    clock.advance(299_000);
    await tick();
    expect((await kit.results(checkId))[0]).toMatchObject({ success: true });
    expect((await runs(checkId))[0]).toMatchObject({ outcome: 'running', flags: [] });

    clock.advance(1_000);
    await tick();
    expect((await kit.results(checkId))[0]).toMatchObject({
      success: false,
      error_message: 'hung: no /start or /log since 2026-03-02 03:04 UTC (keepalive_seconds 300 s)',
    });
    expect((await kit.state(checkId)).state).toBe('down');
    expect((await runs(checkId))[0]).toMatchObject({
      outcome: 'hung',
      ended_at: null,
      log_excerpt: '50% copied',
      flags: ['hung'],
    });
  });

  it('a run that ends within its keepalive is no failure, and nothing is told after it', async () => {
    const { checkId, token } = await kit.pushCheck({ config: { keepalive_seconds: 300 } });
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(200_000);
    await api.request('GET', `/ping/${token}/log`);
    clock.advance(200_000);
    // 400 s after the start, 200 s after the /log: no deadline has passed.
    await tick();
    await api.request('GET', `/ping/${token}`);
    clock.advance(600_000);
    await tick();
    expect((await kit.results(checkId)).map((r) => r.success)).toEqual([true]);
    expect((await runs(checkId))[0]).toMatchObject({ outcome: 'success', duration_ms: 400_000, flags: [] });
  });

  it('is refused in words when it is not a whole number of seconds of at least 1', async () => {
    const { checkId } = await kit.pushCheck();
    const entityId = (await kit.call('GET', `/v1/checks/${checkId}`)).body.entity_id;
    const res = await kit.call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      config: { keepalive_seconds: 0 },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details[0]).toMatchObject({
      path: 'config.keepalive_seconds',
      message: expect.stringMatching(/^[A-Z].*\.$/),
    });
  });
});
