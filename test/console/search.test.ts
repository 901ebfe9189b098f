import { describe, expect, it, vi } from 'vitest';
import {
  audit,
  expectCount,
  expectNoConsoleErrors,
  expectText,
  SHOWN_WITHIN_MS,
  seedEntity,
} from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The header's search and the incidents filter at 1,000+ entities, against a real local runtime
 * (push checks only: nothing is probed). "/" and Ctrl-K open the search; typing finds an entity,
 * a check, a shared channel, an incident and a status page; the arrow keys move and Enter opens
 * the chosen one's page; Escape closes. The incidents list filters on the server by state and by
 * an entity chosen in a search box, and the URL reproduces the view.
 */

const ENTITIES = 1_000;

describe('console search at 1,000+ entities', { timeout: 240_000 }, () => {
  let payments: { entityId: string; checkId: string };
  let billing: { entityId: string; checkId: string };
  let paymentsIncident: string;

  async function entityWithCheck(slug: string, name: string, checkName: string) {
    const entity = await rig.api<{ id: string }>('POST', '/v1/blueprints/svc/entities', { slug, name });
    expect(entity.status).toBe(201);
    const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
      entity_id: entity.body.id,
      check_type: 'push',
      name: checkName,
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    expect(check.status).toBe(201);
    return { entityId: entity.body.id, checkId: check.body.id };
  }
  async function report(checkId: string, success: boolean) {
    const res = await rig.api('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
    expect(res.status).toBe(201);
  }
  async function openIncidentOf(entityId: string): Promise<string> {
    return vi.waitFor(
      async () => {
        const res = await rig.api<{ incidents: { id: string; state: string }[] }>(
          'GET',
          `/v1/incidents?entity_id=${entityId}`,
        );
        expect(res.body.incidents.map((i) => i.state)).toEqual(['open']);
        return res.body.incidents[0]?.id ?? '';
      },
      { timeout: SHOWN_WITHIN_MS, interval: 100 },
    );
  }

  const rig = useConsole({
    env: { VIGIL_RATE_LIMIT_RPS: '100000', VIGIL_RATE_LIMIT_BURST: '100000' },
    timeout: 200_000,
    seed: async (rig) => {
      // A blueprint holds at most 1,000 entities (the default plan): the fleet in one, the named ones in another.
      await seedEntity(rig, { slug: 'fleet', name: 'Fleet' }, { slug: 'svc-0000', name: 'Service 0000' });
      expect((await rig.api('POST', '/v1/blueprints', { slug: 'svc', name: 'Services' })).status).toBe(201);
      for (let start = 1; start < ENTITIES; start += 25) {
        await Promise.all(
          Array.from({ length: Math.min(25, ENTITIES - start) }, async (_, n) => {
            const i = String(start + n).padStart(4, '0');
            const res = await rig.api('POST', '/v1/blueprints/fleet/entities', {
              slug: `svc-${i}`,
              name: `Service ${i}`,
            });
            expect(res.status).toBe(201);
          }),
        );
      }
      payments = await entityWithCheck('payments-api', 'Payments API', 'Payments heartbeat');
      billing = await entityWithCheck('billing-worker', 'Billing worker', 'Billing heartbeat');
      const channel = await rig.api('POST', '/v1/notify/channels', {
        name: 'Payments on-call',
        channel_type: 'nats',
        config: { subject: 'pay.alerts' },
      });
      expect(channel.status).toBe(201);
      const page = await rig.api('POST', '/v1/status-pages', {
        slug: 'public-payments',
        title: 'Public payments',
        entity_ids: [payments.entityId],
      });
      expect(page.status).toBe(201);
      for (const c of [payments, billing]) await report(c.checkId, true);
      for (const c of [payments, billing]) await report(c.checkId, false);
      paymentsIncident = await openIncidentOf(payments.entityId);
      await openIncidentOf(billing.entityId);
    },
  });

  it('opens with / and Ctrl-K, finds each kind, moves with the arrows and opens with Enter', async () => {
    const p = await openSignedIn(rig);
    const dialog = p.page.getByRole('dialog', { name: 'Search' });
    const box = dialog.getByRole('combobox');
    const listbox = dialog.getByRole('listbox');

    await p.page.keyboard.press('/');
    // A string, not a function: the test program is compiled without the DOM's types.
    const focused = "document.activeElement?.getAttribute('role') ?? ''";
    await expect.poll(() => p.page.evaluate<string>(focused)).toBe('combobox');
    await box.fill('payments');
    for (const group of ['Entities', 'Checks', 'Channels', 'Incidents']) {
      await listbox.getByRole('group', { name: group }).waitFor({ timeout: SHOWN_WITHIN_MS });
    }
    const options = listbox.getByRole('option');
    await expectText(options.first().locator('.search-name'), 'Payments API');
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    // The box names the active option; ArrowDown moves to the check.
    await box.press('ArrowDown');
    await expect
      .poll(() => box.getAttribute('aria-activedescendant'))
      .toBe(await options.nth(1).getAttribute('id'));
    await expectText(options.nth(1).locator('.search-name'), 'Payments heartbeat');
    expect(await audit(p.page)).toEqual([]);
    await box.press('ArrowUp');
    await box.press('Enter');
    await p.page.waitForURL('**/entities/svc/payments-api');
    expect(await dialog.isVisible()).toBe(false);

    // Ctrl-K from any page; Enter on the check opens the check’s page.
    await p.page.keyboard.press('Control+k');
    await box.fill('payments heart');
    await expectText(options.first().locator('.search-name'), 'Payments heartbeat');
    await box.press('Enter');
    await p.page.waitForURL(`**/checks/${payments.checkId}`);

    await p.page.keyboard.press('/');
    await box.fill('on-call');
    await expectText(options.first().locator('.search-name'), 'Payments on-call');
    await box.press('Enter');
    await p.page.waitForURL('**/channels');

    // The incident: the entity and its check come first, then the incident.
    await p.page.keyboard.press('/');
    await box.fill('Payments API');
    const incident = listbox.getByRole('group', { name: 'Incidents' }).getByRole('option');
    await expectCount(incident, 1);
    const index = Number((await incident.getAttribute('id'))?.split('-option-')[1]);
    for (let n = 0; n < index; n += 1) await box.press('ArrowDown');
    await box.press('Enter');
    await p.page.waitForURL(`**/incidents/${paymentsIncident}`);
    await p.page.getByRole('heading', { level: 1, name: 'Incident: Payments API' }).waitFor();

    await p.page.keyboard.press('/');
    await box.fill('public pay');
    await expectText(options.first().locator('.search-name'), 'Public payments');
    await box.press('Enter');
    await p.page.waitForURL('**/status-pages');

    // Escape closes; nothing found says so.
    await p.page.keyboard.press('/');
    await box.fill('zzz-nothing');
    await dialog.getByText('Nothing found for “zzz-nothing”.').waitFor({ timeout: SHOWN_WITHIN_MS });
    await box.press('Escape');
    await box.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Opened again at once: the closed box's focus does not swallow the shortcut.
    await p.page.keyboard.press('/');
    await box.waitFor({ timeout: SHOWN_WITHIN_MS });
    await box.press('Escape');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('filters incidents on the server by state and an entity found by search; the URL reproduces the view', async () => {
    const p = await openSignedIn(rig, { path: '/incidents' });
    await p.page.getByRole('table', { name: 'Unresolved incidents' }).waitFor();
    await p.page.getByLabel('State').selectOption('open');
    await p.page.waitForURL(/\/incidents\?state=open$/);
    const matching = p.page.getByRole('table', { name: 'Matching incidents' });
    await expectCount(matching.getByRole('row'), 3);

    const picker = p.page.getByRole('combobox', { name: 'Entity' });
    await picker.fill('Payments');
    await p.page.getByRole('option', { name: /Payments API/ }).click();
    await p.page.waitForURL((url) => url.searchParams.get('entity') === payments.entityId);
    expect(new URL(p.page.url()).searchParams.get('state')).toBe('open');
    // One row: the entity column is left out, the opening links to the incident.
    await expectCount(matching.getByRole('row'), 2);
    await expectCount(matching.getByRole('link', { name: /^Incident of Payments API/ }), 1);
    expect(await audit(p.page)).toEqual([]);

    // The same URL in a new page shows the same view, the entity named (found by its id).
    const link = p.page.url();
    const again = await openSignedIn(rig, { path: link });
    await again.page.getByText('Payments API', { exact: true }).waitFor({ timeout: SHOWN_WITHIN_MS });
    expect(await again.page.getByLabel('State').inputValue()).toBe('open');
    const view = again.page.getByRole('table', { name: 'Matching incidents' });
    await expectCount(view.getByRole('row'), 2);
    await expectCount(view.getByRole('link', { name: /^Incident of Billing worker/ }), 0);
    await again.page.getByRole('button', { name: 'Any entity' }).click();
    await again.page.waitForURL(/\/incidents\?state=open$/);
    await expectCount(view.getByRole('row'), 3);
    expectNoConsoleErrors(p);
    expectNoConsoleErrors(again);
    await p.close();
    await again.close();
  });
});
