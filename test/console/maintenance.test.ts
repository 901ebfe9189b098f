import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEntity } from './entity-picker.ts';
import {
  expectCount,
  expectNoConsoleErrors,
  expectText,
  SHOWN_WITHIN_MS,
  screenshot,
  seedServices,
} from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The Maintenance page against a real local runtime: a member creates a one-off window covering an
 * entity through the form (listed, on now), a failing push check of that entity is then logged
 * `skipped` with `maintenance: <name>` on the Notifications page and the entity page says "in
 * maintenance"; a recurring window with a cron and timezone (a bad timezone, then a bad cron, show
 * the API's error at their field); editing and deleting; a read-only key finds no write control.
 */

interface Window {
  id: string;
  name: string;
  active: boolean;
  entity_ids: string[];
  blueprint_slugs: string[];
  starts_at: string | null;
  ends_at: string | null;
  cron: string | null;
  duration_seconds: number | null;
  timezone: string | null;
  announce: boolean;
  announce_from: string | null;
  public_note: string | null;
}
interface Delivery {
  event: string;
  status: string;
  reason: string | null;
  channel_type: string | null;
}

describe('console maintenance', { timeout: 90_000 }, () => {
  let receiver: Server;
  const received: string[] = [];
  let billing: { entityId: string; checkId: string };

  const windows = async () => (await rig.api<{ windows: Window[] }>('GET', '/v1/maintenance')).body.windows;
  const byName = async (name: string) => (await windows()).find((w) => w.name === name);

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  const rig = useConsole({
    seed: async (rig) => {
      const { billing: entityId } = await seedServices(rig, 'Billing');
      const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
        entity_id: entityId,
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
      });
      expect(check.status).toBe(201);
      billing = { entityId, checkId: check.body.id };
      // A webhook the down alert would reach outside maintenance.
      const channel = await rig.api('POST', `/v1/checks/${billing.checkId}/policy/channels`, {
        channel_type: 'webhook',
        config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alert` },
      });
      expect(channel.status, JSON.stringify(channel.body)).toBe(201);
      // Up first, so the failure below is a change to down (an unknown → up change is never alerted).
      expect(
        (await rig.api('POST', `/v1/checks/${billing.checkId}/results`, { success: true, latency_ms: 5 }))
          .status,
      ).toBe(201);
    },
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('creates a one-off window covering an entity through the form; it is listed and on now', async () => {
    const p = await openSignedIn(rig);
    await p.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Maintenance' }).click();
    await p.page.getByRole('heading', { level: 1, name: 'Maintenance' }).waitFor();
    await p.page.getByText('No maintenance windows yet.').waitFor();

    // The form starts a one-off window now, for an hour: name it and pick the entity.
    const form = p.page.getByRole('form', { name: 'New maintenance window' });
    await form.getByLabel(/^Name/).fill('Billing deploy');
    await chooseEntity(form, 'Add an entity', 'bill', 'Billing');
    await expectText(
      form.getByRole('list', { name: 'Covered entities' }).getByRole('listitem'),
      /^Billing \(svc\/billing\)/,
    );
    await form.getByRole('button', { name: 'Create window' }).click();
    await expectText(form.getByRole('status'), 'The window Billing deploy was created.');

    const table = p.page.getByRole('table', { name: 'Maintenance windows' });
    await expectCount(table.getByRole('row'), 2);
    const cells = table.getByRole('row').nth(1).getByRole('cell');
    await expectText(cells.nth(0), 'Billing deploy');
    await expectText(cells.nth(1), /^Once: .+ to .+$/);
    await expectText(cells.nth(3), 'on now');
    await expectText(cells.nth(4), 'none (once only)');
    expect(await cells.nth(2).getByRole('link', { name: 'Billing' }).getAttribute('href')).toBe(
      '/entities/svc/billing',
    );

    const stored = await byName('Billing deploy');
    expect(stored).toMatchObject({
      active: true,
      entity_ids: [billing.entityId],
      cron: null,
      blueprint_slugs: [],
    });
    expect(Date.parse(stored?.ends_at ?? '') - Date.parse(stored?.starts_at ?? '')).toBe(3_600_000);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('logs the alert of a failing push check skipped for the window, and the entity shows in maintenance', async () => {
    expect((await byName('Billing deploy'))?.active).toBe(true);
    const failed = await rig.api('POST', `/v1/checks/${billing.checkId}/results`, {
      success: false,
      latency_ms: 5,
      error_message: 'connection refused',
    });
    expect(failed.status).toBe(201);
    await expect
      .poll(
        async () =>
          (await rig.api<{ logs: Delivery[] }>('GET', '/v1/notify/logs')).body.logs.find(
            (l) => l.event === 'down',
          ),
        { timeout: SHOWN_WITHIN_MS },
      )
      .toMatchObject({ status: 'skipped', reason: 'maintenance: Billing deploy', channel_type: 'webhook' });
    // Skipped, so never sent: the webhook heard nothing.
    expect(received).toEqual([]);

    const p = await openSignedIn(rig, { path: '/notifications' });
    const down = p.page
      .getByRole('table', { name: 'Deliveries' })
      .getByRole('row')
      .filter({ hasText: 'maintenance: Billing deploy' });
    await expectCount(down, 1);
    await expectText(down.getByRole('cell').nth(1), 'Down');
    // Time, Event, Entity, Check, Channel, Outcome.
    await expectText(down.getByRole('cell').nth(5), 'skipped');

    await p.page.goto('/entities/svc/billing');
    await p.page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await expectText(p.page.locator('.page-actions .badge').nth(0), 'down');
    await expectText(p.page.locator('.page-actions .badge').nth(1), 'in maintenance');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('creates a recurring window with a cron and a timezone; a bad timezone or cron shows the API error at its field', async () => {
    const p = await openSignedIn(rig, { path: '/maintenance' });
    const form = p.page.getByRole('form', { name: 'New maintenance window' });
    await form.getByLabel(/^Name/).fill('Nightly backup');
    await form.getByLabel('Schedule').selectOption('recurring');
    await form.getByLabel(/^Cron/).fill('30 2 * * *');
    await form.getByLabel(/^Duration \(minutes\)/).fill('90');
    await form.getByLabel('Timezone').fill('Mars/Olympus');
    await form.getByLabel('Blueprint Services').check();
    await form.getByRole('button', { name: 'Create window' }).click();
    await expect.poll(() => form.getByLabel('Timezone').getAttribute('aria-invalid')).toBe('true');
    await expectText(form.locator('.field-error'), 'Enter a timezone name, such as Europe/Berlin.');
    await expectText(form.getByRole('alert').locator('strong'), 'The window was not created.');

    // A known timezone, a cron with minute 61: the API's message for `cron` shows at the Cron field.
    const refused = await rig.api<{ details: { path: string; message: string }[] }>(
      'POST',
      '/v1/maintenance',
      {
        name: 'x',
        blueprint_slugs: ['svc'],
        cron: '61 2 * * *',
        duration_seconds: 5400,
        timezone: 'Europe/Berlin',
      },
    );
    expect(refused.status).toBe(400);
    const cronMessage = refused.body.details.find((d) => d.path === 'cron')?.message ?? '';
    expect(cronMessage).not.toBe('');
    await form.getByLabel('Timezone').fill('Europe/Berlin');
    await form.getByLabel(/^Cron/).fill('61 2 * * *');
    await form.getByRole('button', { name: 'Create window' }).click();
    await expect.poll(() => form.getByLabel(/^Cron/).getAttribute('aria-invalid')).toBe('true');
    // The console shows it as a sentence: a capital first letter and a full stop.
    const cronSentence = cronMessage.charAt(0).toUpperCase() + cronMessage.slice(1);
    await expectText(
      form.locator('.field-error'),
      /[.!?…)]$/.test(cronSentence) ? cronSentence : `${cronSentence}.`,
    );
    expect(await form.getByLabel('Timezone').getAttribute('aria-invalid')).toBeNull();

    await form.getByLabel(/^Cron/).fill('30 2 * * *');
    await form.getByRole('button', { name: 'Create window' }).click();
    await expectText(form.getByRole('status'), 'The window Nightly backup was created.');
    const row = p.page
      .getByRole('table', { name: 'Maintenance windows' })
      .getByRole('row')
      .filter({ hasText: 'Nightly backup' });
    await expectText(
      row.getByRole('cell').nth(1),
      'Recurring: 30 2 * * * (Europe/Berlin), 1 h 30 min each time',
    );
    await expectText(row.getByRole('cell').nth(2), 'every entity of blueprint svc');
    // The next start is the next 02:30 in Berlin, within a day.
    const next = Date.parse(
      (await row.getByRole('cell').nth(4).locator('time').getAttribute('datetime')) ?? '',
    );
    const berlin = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', timeStyle: 'short' });
    expect(berlin.format(next)).toBe('02:30');
    expect(next - Date.now()).toBeGreaterThan(0);
    expect(next - Date.now()).toBeLessThanOrEqual(25 * 3_600_000);

    expect(await byName('Nightly backup')).toMatchObject({
      cron: '30 2 * * *',
      timezone: 'Europe/Berlin',
      duration_seconds: 5400,
      blueprint_slugs: ['svc'],
      entity_ids: [],
      starts_at: null,
      ends_at: null,
    });
    await screenshot(p.page, 'maintenance');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('announces a window on status pages through the form: a late announce-from shows at its field, the table says announced', async () => {
    const page = await rig.api('POST', '/v1/status-pages', {
      slug: 'billing-status',
      title: 'Billing status',
      entity_ids: [billing.entityId],
    });
    expect(page.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/maintenance' });
    const form = p.page.getByRole('form', { name: 'New maintenance window' });
    await form.getByLabel(/^Name/).fill('Billing migration');
    await chooseEntity(form, 'Add an entity', 'bill', 'Billing');
    // A start tomorrow at 10:00 local time, announced from the day after: after the start.
    const day = new Date(Date.now() + 24 * 3_600_000);
    const local = (d: Date, hh: string) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}T${hh}`;
    await form.getByLabel(/^Starts/).fill(local(day, '10:00'));
    await form.getByLabel(/^Ends/).fill(local(day, '12:00'));
    await form.getByLabel('Announce on status pages').check();
    await form.getByLabel(/^Announce from/).fill(local(day, '11:00'));
    await form.getByLabel(/^Public note/).fill('The *invoices* page is read-only meanwhile.');
    await form.getByRole('button', { name: 'Create window' }).click();
    await expect.poll(() => form.getByLabel(/^Announce from/).getAttribute('aria-invalid')).toBe('true');
    await expectText(
      form.locator('.field-error'),
      'Announce the window at or before its start time (starts_at).',
    );

    await form.getByLabel(/^Announce from/).fill('');
    await form.getByRole('button', { name: 'Create window' }).click();
    await expectText(form.getByRole('status'), 'The window Billing migration was created.');
    const row = p.page
      .getByRole('table', { name: 'Maintenance windows' })
      .getByRole('row')
      .filter({ hasText: 'Billing migration' });
    await expectText(row.getByRole('cell').nth(5), 'announced');
    const stored = await byName('Billing migration');
    expect(stored).toMatchObject({
      announce: true,
      announce_from: null,
      public_note: 'The *invoices* page is read-only meanwhile.',
    });

    // The public page lists it ahead, with its note rendered.
    const html = await (await fetch(`${rig.url}/p/billing-status`)).text();
    expect(html).toContain(
      '<h3>Billing migration</h3><p class="meta"><span class="st">Scheduled maintenance</span>',
    );
    expect(html).toContain('<p>The <em>invoices</em> page is read-only meanwhile.</p>');

    const removed = await rig.api('DELETE', `/v1/maintenance/${stored?.id}`);
    expect(removed.status).toBe(204);
    expect((await rig.api('DELETE', '/v1/status-pages/billing-status')).status).toBe(204);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('edits a window and deletes one', async () => {
    const p = await openSignedIn(rig, { path: '/maintenance' });
    const table = p.page.getByRole('table', { name: 'Maintenance windows' });
    await expectCount(table.getByRole('row'), 3);
    await table.getByRole('button', { name: 'Edit Nightly backup' }).click();
    const form = p.page.getByRole('form', { name: 'Edit Nightly backup' });
    expect(await form.getByLabel(/^Cron/).inputValue()).toBe('30 2 * * *');
    expect(await form.getByLabel('Timezone').inputValue()).toBe('Europe/Berlin');
    await form.getByLabel(/^Duration \(minutes\)/).fill('120');
    await form.getByRole('button', { name: 'Save window' }).click();
    await p.page.getByRole('form', { name: 'New maintenance window' }).waitFor();
    const row = table.getByRole('row').filter({ hasText: 'Nightly backup' });
    await expectText(row.getByRole('cell').nth(1), 'Recurring: 30 2 * * * (Europe/Berlin), 2 h each time');
    expect((await byName('Nightly backup'))?.duration_seconds).toBe(7200);

    await row.getByRole('button', { name: 'Delete Nightly backup' }).click();
    await p.page
      .getByRole('dialog', { name: 'Delete Nightly backup' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expectCount(table.getByRole('row'), 2);
    expect((await windows()).map((w) => w.name)).toEqual(['Billing deploy']);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('gives a read-only key the windows to read but no write control', async () => {
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'wall',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/maintenance', key: created.body.key });
    const table = p.page.getByRole('table', { name: 'Maintenance windows' });
    await expectText(table.getByRole('row').nth(1).getByRole('cell').nth(0), 'Billing deploy');
    await expectCount(table.getByRole('columnheader'), 6);
    await expectCount(p.page.getByRole('button', { name: /Edit|Delete|Create window|Save window/ }), 0);
    await expectCount(p.page.locator('main form'), 0);
    await p.page.goto('/entities/svc/billing');
    await expectText(p.page.locator('.page-actions .badge').nth(1), 'in maintenance');
    expectNoConsoleErrors(p);
    await p.close();

    // The same page offers a member the form and the row's controls.
    const member = await openSignedIn(rig, { path: '/maintenance' });
    await member.page.getByRole('form', { name: 'New maintenance window' }).waitFor();
    await member.page.getByRole('button', { name: 'Edit Billing deploy' }).waitFor();
    expectNoConsoleErrors(member);
    await member.close();
  });
});
