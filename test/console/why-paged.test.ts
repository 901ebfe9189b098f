import { describe, expect, it, vi } from 'vitest';
import { audit, expectNoConsoleErrors, expectText, screenshot, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * "Why would I (not) be paged?" on the check page and the entity page against a real runtime: the
 * decisions of POST /v1/notify/simulate in a table, in words (own channel and route sent, the
 * escalation's time, a silenced policy not sent), usable with a read-only key, sending nothing.
 */

describe('console: why would I (not) be paged', { timeout: 90_000 }, () => {
  let checkId = '';
  let readOnlyKey = '';

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await rig.api<T>(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };

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
          interval_seconds: 60,
          failure_threshold: 1,
          name: 'Shop heartbeat',
        })
      ).id;
      await call('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 5 });
      await call('POST', `/v1/checks/${checkId}/policy/channels`, {
        channel_type: 'nats',
        config: { subject: 'ops.alerts' },
      });
      const oncall = await call<{ id: string }>('POST', '/v1/notify/channels', {
        name: 'On-call',
        channel_type: 'nats',
        config: { subject: 'ops.oncall' },
      });
      await call('POST', '/v1/notify/routes', {
        match: { blueprint_slugs: ['shop'], to_states: ['down'] },
        channel_ids: [oncall.id],
        escalate_after_seconds: 600,
        escalate_channel_ids: [oncall.id],
      });
      readOnlyKey = (
        await call<{ key: string }>('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })
      ).key;
      // The entity is up (its first result made it so): a down is a change.
      await vi.waitFor(
        async () =>
          expect((await call<{ state: string }>('GET', '/v1/blueprints/shop/entities/api')).state).toBe('up'),
        { timeout: 10_000, interval: 100 },
      );
    },
  });

  it('shows what each channel would get on the check page, and a silenced policy in words', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    await p.page.getByLabel('If it went').selectOption('down');
    await p.page.getByRole('button', { name: 'Why would I (not) be paged?' }).click();
    const table = p.page.getByRole('table', { name: 'What would happen' });
    const rows = table.locator('tbody tr');
    await expectText(
      rows.nth(0),
      /^nats ops\.alerts.*the check's own channel.*sent.*sent: the check's own channel.*now$/,
    );
    await expectText(
      rows.nth(1),
      /^On-call.*a route.*sent.*route rte_\w+ \(blueprint shop, state down\) matches/,
    );
    await expectText(rows.nth(2), /^Escalation to On-call.*a route.*sent.*unacknowledged.*at /);
    await expectText(
      p.page.getByText(/^If Shop API \(now up\) went down now/),
      /2 channel\(s\) would be alerted at once/,
    );
    expect(await audit(p.page)).toEqual([]);
    await screenshot(p.page, 'why-paged-check');

    await call('POST', `/v1/checks/${checkId}/policy`, { silenced: true });
    await p.page.getByRole('button', { name: 'Why would I (not) be paged?' }).click();
    await expectText(rows.nth(0), /^nats ops\.alerts.*not sent.*silenced/);
    await expectText(
      p.page.getByText(/^If Shop API \(now up\) went down now/),
      /nobody would be alerted at once/,
    );
    await call('POST', `/v1/checks/${checkId}/policy`, { silenced: false });
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('simulates every check of the entity on its page, for a read-only key too, sending nothing', async () => {
    const p = await openSignedIn(rig, { path: '/entities/shop/api', key: readOnlyKey });
    await p.page.getByLabel('If it went').selectOption('degraded');
    await p.page.getByRole('button', { name: 'Why would I (not) be paged?' }).click();
    const table = p.page.getByRole('table', { name: 'What would happen' });
    await expectText(table.locator('thead'), /^Check.*Channel/);
    // The route matches down only: a change to degraded reaches the check's own channel alone.
    await expectText(table.locator('tbody'), /^Shop heartbeat.*nats ops\.alerts.*sent/);
    expect(await table.locator('tbody tr').count()).toBe(1);
    expectNoConsoleErrors(p);
    await p.close();
    // The only record is the first result's skip, written before any simulation.
    const logs = await call<{ logs: { event: string; reason: string }[] }>('GET', '/v1/notify/logs');
    expect(logs.logs.map((l) => `${l.event}: ${l.reason}`)).toEqual(['up: first result']);
  });
});
