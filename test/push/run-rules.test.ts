import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * A heartbeat's run rules (issue 78 point 2, DECISIONS.md "Cron runs (wave 6)"), on both runtimes
 * and a fake clock: each breach is a failed result in the rule's words, so the check's state moves
 * as for any failure, and the run carries the rule's flag.
 */
describe.each(bothRuntimes)('run rules ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);
  const RID_A = '6f1c2b3a-1111-4aaa-8bbb-000000000001';
  const RID_B = '6f1c2b3a-2222-4aaa-8bbb-000000000002';
  // biome-ignore lint/suspicious/noExplicitAny: runs are inspected freely
  const runs = async (checkId: string): Promise<any[]> =>
    (await kit.call('GET', `/v1/checks/${checkId}/runs`)).body.runs;
  const entityId = async () => {
    const { checkId } = await kit.pushCheck();
    return (await kit.call('GET', `/v1/checks/${checkId}`)).body.entity_id as string;
  };
  const ping = (token: string, suffix = '', query = '') =>
    api.request('GET', `/ping/${token}${suffix}${query}`);

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  describe('min_duration_seconds', () => {
    it("a run that ends sooner is a failed result in the rule's words, and the check goes down", async () => {
      const { checkId, token } = await kit.pushCheck({ config: { min_duration_seconds: 600 } });
      await ping(token, '/start');
      clock.advance(4_000);
      await ping(token);

      const [result] = await kit.results(checkId);
      expect(result).toMatchObject({
        success: false,
        latency_ms: 4_000,
        error_message: 'finished in 4 s; expected at least 10 min',
      });
      expect((await kit.state(checkId)).state).toBe('down');
      expect((await runs(checkId))[0]).toMatchObject({
        outcome: 'success',
        duration_ms: 4_000,
        flags: ['too_short'],
      });
    });

    it('a run that lasts long enough, /0 included, is a success; a run with no start is not judged', async () => {
      const { checkId, token } = await kit.pushCheck({ config: { min_duration_seconds: 600 } });
      await ping(token, '/start');
      clock.advance(600_000);
      await ping(token, '/0');
      clock.advance(1_000);
      await ping(token);

      expect((await kit.results(checkId)).map((r) => [r.success, r.error_message])).toEqual([
        [true, ''],
        [true, ''],
      ]);
      expect((await runs(checkId)).map((r) => r.flags)).toEqual([[], []]);
      expect((await kit.state(checkId)).state).toBe('up');
    });

    it('is refused in words when it is not a whole number of seconds of at least 1', async () => {
      for (const bad of [0, 1.5, 'ten']) {
        const res = await kit.call('POST', '/v1/checks', {
          entity_id: await entityId(),
          check_type: 'push',
          interval_seconds: 3600,
          config: { min_duration_seconds: bad },
        });
        expect(res.status, res.text).toBe(400);
        expect(res.body.details[0]).toMatchObject({
          path: 'config.min_duration_seconds',
          message: expect.stringMatching(/^[A-Z].*\.$/),
        });
      }
    });
  });

  describe('overlap', () => {
    it('alert: a start while another run is running is a failed result saying so, and the run is flagged', async () => {
      const { checkId, token } = await kit.pushCheck({ config: { overlap: 'alert' } });
      await ping(token, '/start', `?rid=${RID_A}`);
      clock.advance(90_000);
      await ping(token, '/start', `?rid=${RID_B}`);

      const [told] = await kit.results(checkId);
      expect(told).toMatchObject({
        success: false,
        error_message: 'started while another run was still running (started 1 min 30 s earlier)',
      });
      expect((await kit.state(checkId)).state).toBe('down');
      clock.advance(5_000);
      await ping(token, '', `?rid=${RID_B}`);
      clock.advance(5_000);
      await ping(token, '', `?rid=${RID_A}`);
      expect((await runs(checkId)).map((r) => [r.rid, r.outcome, r.flags])).toEqual([
        [RID_B, 'success', ['overlap']],
        [RID_A, 'success', []],
      ]);
      expect((await kit.state(checkId)).state).toBe('up');
    });

    it('alert: a start after the run ended, or after it outlived the time a run may take, is no overlap', async () => {
      const { checkId, token } = await kit.pushCheck({ config: { overlap: 'alert' } });
      await ping(token, '/start');
      clock.advance(1_000);
      await ping(token);
      await ping(token, '/start');
      // interval 3600 s with the default grace: a started run may take 3600 s.
      clock.advance(3_600_000);
      await ping(token, '/start', `?rid=${RID_A}`);

      expect((await kit.results(checkId)).every((r) => r.success)).toBe(true);
      expect((await runs(checkId)).map((r) => r.flags)).toEqual([[], ['hung'], []]);
    });

    it('alert: a run silent past its keepalive still counts as running', async () => {
      const { checkId, token } = await kit.pushCheck({ config: { overlap: 'alert', keepalive_seconds: 60 } });
      await ping(token, '/start', `?rid=${RID_A}`);
      clock.advance(120_000);
      await ping(token, '/start', `?rid=${RID_B}`);
      expect((await kit.results(checkId))[0]).toMatchObject({
        success: false,
        error_message: 'started while another run was still running (started 2 min earlier)',
      });
    });

    it('allow (the default): overlapping runs are no failure', async () => {
      const { checkId, token } = await kit.pushCheck();
      await ping(token, '/start', `?rid=${RID_A}`);
      await ping(token, '/start', `?rid=${RID_B}`);
      expect(await kit.results(checkId)).toEqual([]);
      expect((await runs(checkId)).map((r) => r.flags)).toEqual([[], []]);
    });

    it('is refused in words when it is neither allow nor alert', async () => {
      const res = await kit.call('POST', '/v1/checks', {
        entity_id: await entityId(),
        check_type: 'push',
        interval_seconds: 3600,
        config: { overlap: 'sometimes' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.details[0]).toMatchObject({
        path: 'config.overlap',
        message: 'Choose one of: allow or alert.',
      });
    });
  });
});
