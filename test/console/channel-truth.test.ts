import { describe, expect, it, vi } from 'vitest';
import { expectNoConsoleErrors, expectText, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * Visible truth in the console against a real runtime: a channel told the entity was down, whose
 * recovery a silenced policy holds, shows on the entity page as last told "down" and held by silence
 * with no end, and the status board counts the entity as not yet told.
 */

describe('console: what each channel was told', { timeout: 90_000 }, () => {
  let checkId = '';

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await rig.api<T>(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const entityState = async () =>
    (await call<{ state: string }>('GET', '/v1/blueprints/shop/entities/api')).state;

  const rig = useConsole({
    seed: async (rig) => {
      const entityId = await seedEntity(
        rig,
        { slug: 'shop', name: 'Shop' },
        { slug: 'api', name: 'Shop API' },
      );
      checkId = (
        await call<{ id: string }>('POST', '/v1/checks', {
          entity_id: entityId,
          check_type: 'push',
          interval_seconds: 3600,
          failure_threshold: 1,
          name: 'Shop heartbeat',
        })
      ).id;
      await call('POST', `/v1/checks/${checkId}/policy/channels`, {
        channel_type: 'nats',
        config: { subject: 'ops.alerts' },
      });
      await call('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 5 });
      await vi.waitFor(async () => expect(await entityState()).toBe('up'), {
        timeout: 10_000,
        interval: 100,
      });
      await call('POST', `/v1/checks/${checkId}/results`, { success: false, latency_ms: 5 });
      // The channel is told down (its last word), then the policy is silenced and the entity recovers.
      await vi.waitFor(
        async () => {
          const told = await call<{ channels: { last_told: { state: string } | null }[] }>(
            'POST',
            '/v1/notify/simulate',
            { entity_id: entityId },
          );
          expect(told.channels.map((c) => c.last_told?.state)).toEqual(['down']);
        },
        { timeout: 10_000, interval: 100 },
      );
      await call('POST', `/v1/checks/${checkId}/policy`, { silenced: true });
      await call('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 5 });
      await vi.waitFor(async () => expect(await entityState()).toBe('up'), {
        timeout: 10_000,
        interval: 100,
      });
    },
  });

  it('shows the last word and the hold on the entity page, and the count on the board', async () => {
    const p = await openSignedIn(rig, { path: '/entities/shop/api' });
    const table = p.page.getByRole('table', { name: 'What each channel was told' });
    const row = table.locator('tbody tr').first();
    await expectText(row, /down/);
    await expectText(row, /held by silence \(no end\)$/);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);

    await p.page.goto('/status');
    await p.page.getByRole('tab', { name: 'All' }).click();
    await expectText(p.page.getByTestId('count-untold'), /^1/);
    expectNoConsoleErrors(p);
  });
});
