import { describe, expect, it } from 'vitest';
import { isoTime } from '../../lib/platform/clock.ts';
import { outcomeResult } from './support/alert-truth-model.ts';
import { flowHarnessPerTest, routedWebhook } from './support/flow-harness.ts';

/**
 * Visible truth through a hold's end, on the local flow (real notifier, fake time): a down inside
 * the cooldown of a degraded alert is shown held by the cooldown until it ends; once the re-judge
 * told the truth, the channel's last word is down, nothing holds it, and the board counts no
 * untold entity.
 */

describe('what each channel was told, across the cooldown (local flow)', () => {
  const h = flowHarnessPerTest();

  const result = async (checkId: string, outcome: 'up' | 'degraded' | 'down') => {
    await h.time.advance(1000);
    const recorded = await h.app.recorder.record(
      outcomeResult(h.tenantId, checkId, outcome, h.time.clock.now()),
    );
    expect(recorded.status).toBe('recorded');
    await h.settle();
  };

  it('shows down told and nothing held once the cooldown has ended', async () => {
    const { entityId, checkId } = await h.entityWithCheck('Checkout');
    await h.policy(checkId, { cooldown_seconds: 300 });
    const channel = await h.channel(checkId);
    await result(checkId, 'up');
    await result(checkId, 'degraded');
    const degradedAt = h.sent.at(-1)?.atMs ?? 0;
    await h.time.advance(14_000);
    await result(checkId, 'down');

    const truth = async () =>
      (await h.call('POST', '/v1/notify/simulate', { entity_id: entityId }, 200)).channels;
    expect(await truth()).toEqual([
      expect.objectContaining({
        channel_id: channel.id,
        last_told: expect.objectContaining({ state: 'degraded' }),
        held: { by: 'cooldown', until: isoTime(degradedAt + 300_000) },
      }),
    ]);
    expect((await h.call('GET', '/v1/status', undefined, 200)).untold).toBe(1);

    await h.time.advance(300_000, 300_000);
    await h.settle();

    expect(await truth()).toEqual([
      expect.objectContaining({
        channel_id: channel.id,
        last_told: expect.objectContaining({ state: 'down', kind: 'alert' }),
        held: null,
      }),
    ]);
    expect((await h.call('GET', '/v1/status', undefined, 200)).untold).toBe(0);
  });

  it('shows a down held by its group until the batch flushes, then told with nothing held', async () => {
    const { entityId, checkId } = await h.entityWithCheck('Checkout');
    await h.policy(checkId, { cooldown_seconds: 0 });
    const channel = await routedWebhook(h, 'grouped', { group_by: 'tenant', group_wait_seconds: 10 });
    await result(checkId, 'up');
    await result(checkId, 'down');
    const downAt = h.time.clock.now();

    const truth = async () =>
      (await h.call('POST', '/v1/notify/simulate', { entity_id: entityId }, 200)).channels as {
        channel_id: string;
        held: { by: string; until: string } | null;
        last_told: { state: string } | null;
      }[];
    const [waiting] = await truth();
    expect(waiting?.channel_id).toBe(channel.id);
    expect(waiting?.held?.by).toBe('group');
    // The batch flushes group_wait after the down opened it (the flow settles within a second).
    const until = Date.parse(waiting?.held?.until ?? '');
    expect(until).toBeGreaterThan(downAt);
    expect(until).toBeLessThanOrEqual(downAt + 10_000);
    expect(h.digests).toHaveLength(0);

    await h.time.advance(11_000, 500);
    expect(h.digests).toHaveLength(1);
    expect(await truth()).toEqual([
      expect.objectContaining({
        channel_id: channel.id,
        last_told: expect.objectContaining({ state: 'down' }),
        held: null,
      }),
    ]);
  });
});
