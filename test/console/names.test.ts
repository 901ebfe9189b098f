import { describe, expect, it } from 'vitest';
import { type ConsolePage, expectNoConsoleErrors, expectText, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * Check names instead of ids: a named check's name is what the check list, the entity page, the
 * check page, the action list, page and check picker, and the delivery log show; no `chk_` id is
 * shown as text where the name exists (ids stay in URLs).
 */
describe('console check names', { timeout: 60_000 }, () => {
  let checkId = '';
  let actionId = '';

  /** The page's visible text holds no check id. */
  const expectNoCheckIds = async (p: ConsolePage) => {
    expect(await p.page.locator('main').textContent()).not.toMatch(/chk_/);
  };

  const rig = useConsole({
    seed: async (rig) => {
      const entityId = await seedEntity(
        rig,
        { slug: 'svc', name: 'Services' },
        { slug: 'backup', name: 'Backup host' },
      );
      const check = await rig.api<{ id: string; name: string }>('POST', '/v1/checks', {
        entity_id: entityId,
        check_type: 'push',
        name: 'Nightly backup',
        interval_seconds: 86_400,
        failure_threshold: 1,
      });
      expect(check.status).toBe(201);
      checkId = check.body.id;
      // A channel (nats, no server here: its delivery is logged and fails) and a failure to log.
      const channel = await rig.api('POST', `/v1/checks/${checkId}/policy/channels`, {
        channel_type: 'nats',
        config: { subject: 'alerts' },
      });
      expect(channel.status).toBe(201);
      const pushed = await rig.api('POST', `/v1/checks/${checkId}/results`, {
        success: false,
        latency_ms: 1,
        error_message: 'backup failed',
      });
      expect(pushed.status).toBe(201);
      const action = await rig.api<{ id: string }>('POST', '/v1/actions', {
        name: 'Restart backup',
        url: 'http://127.0.0.1:9/restart',
        trigger_type: 'state_change',
        check_id: checkId,
        trigger_to_state: 'down',
      });
      expect(action.status).toBe(201);
      actionId = action.body.id;
    },
  });

  it('names the check on the checks, entity and check pages', async () => {
    const p = await openSignedIn(rig, { path: '/checks' });
    const link = p.page.getByRole('table', { name: 'Checks' }).getByRole('link', { name: 'Nightly backup' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/checks/${checkId}`);
    await expectNoCheckIds(p);

    await p.page.goto('/entities/svc/backup');
    await p.page.getByRole('link', { name: 'Nightly backup' }).waitFor();
    await p.page.getByRole('table', { name: 'Recent results' }).getByText('backup failed').waitFor();
    await expectNoCheckIds(p);

    await p.page.goto(`/checks/${checkId}`);
    await p.page.getByRole('heading', { name: 'Nightly backup', level: 1 }).waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('names the check in the action list, the action page and its check picker', async () => {
    const p = await openSignedIn(rig, { path: '/actions' });
    await p.page.getByRole('link', { name: 'Restart backup' }).waitFor();
    await p.page.getByText('on down of Nightly backup').waitFor();
    await expectNoCheckIds(p);

    await p.page.goto(`/actions/${actionId}`);
    await p.page.getByRole('heading', { name: 'Restart backup', level: 1 }).waitFor();
    await p.page.getByText('on down of Nightly backup').waitFor();
    await expectNoCheckIds(p);
    await p.page.getByRole('button', { name: 'Edit' }).click();
    const picker = p.page.getByRole('combobox', { name: /^Check/ });
    await expectText(picker.locator('option:checked'), 'Nightly backup (svc/backup)');
    await expectNoCheckIds(p);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('names the check in the delivery log and the channel list', async () => {
    // The failure's delivery is logged once the notify job has run.
    await expect
      .poll(
        async () =>
          (await rig.api<{ logs: unknown[] }>('GET', `/v1/notify/logs?check_id=${checkId}`)).body.logs.length,
        { timeout: 10_000, interval: 250 },
      )
      .toBeGreaterThan(0);
    const p = await openSignedIn(rig, { path: '/notifications' });
    const log = p.page.getByRole('table', { name: 'Deliveries' });
    await log.getByRole('link', { name: 'Nightly backup' }).first().waitFor();
    await p.page
      .getByRole('table', { name: 'Channels' })
      .getByRole('link', { name: 'Nightly backup' })
      .waitFor();
    // The log filters by check from its rows (no select of every check): the link names it.
    await log.getByRole('link', { name: 'only deliveries of Nightly backup' }).first().waitFor();
    await expectNoCheckIds(p);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
