import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { locateForConsole } from './located-rig.ts';
import { audit, expectCount, expectNoConsoleErrors, expectText, screenshot, seedEntity } from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * A check probed from three locations (quorum 2) in the console against a real local runtime. Its
 * slots are reported location by location through the location decider over the runtime's own
 * SQLite file, as the runtime's workers and agents report them: the check page shows the quorum,
 * each location's part in the last slot, a latency line per location, an inconclusive slot as its
 * own state among the results, and uptime per location. The form picks locations and a quorum.
 */

const LOCATIONS = ['default', 'office', 'eu-west-1'];
const MINUTE = 60_000;

type Report = { up: boolean; ms: number };

/** The check page's Locations card. */
const locationsSection = (page: Page) =>
  page.locator('section.card', {
    has: page.getByRole('heading', { level: 2, name: 'Locations', exact: true }),
  });

describe('console check locations', { timeout: 120_000 }, () => {
  let table: SqliteTable;
  let checkId = '';
  let entityId = '';
  const clock = createFakeClock(Date.now());

  const rig = useConsole({
    seed: async (rig) => {
      for (const name of ['office', 'eu-west-1']) {
        expect((await rig.api('POST', '/v1/locations', { name, kind: 'agent' })).status).toBe(201);
      }
      entityId = await seedEntity(
        rig,
        { slug: 'shop', name: 'Shop' },
        { slug: 'checkout', name: 'Checkout' },
      );
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        name: 'Checkout port',
        check_type: 'tcp',
        interval_seconds: 60,
        config: { host: '127.0.0.1', port: 9 },
        enabled: false,
      });
      const located = await locateForConsole(rig, checkId, { locations: LOCATIONS, quorum: 2, clock });
      table = located.table;
      const { tenantId, decider } = located;
      const slot = async (slotMs: number, reports: Record<string, Report>) => {
        clock.set(slotMs + 1000);
        for (const [location, { up, ms }] of Object.entries(reports)) {
          const stored = await decider.report({
            tenantId,
            checkId,
            slotMs,
            location,
            result: {
              success: up,
              status_code: 0,
              latency_ms: ms,
              error_message: up ? '' : 'connection refused',
              checked_at: new Date(slotMs).toISOString(),
            },
          });
          expect(stored).toBe('recorded');
        }
        clock.set(slotMs + 2 * MINUTE);
        await decider.decide(tenantId, checkId, slotMs, true);
      };
      const start = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
      // Reports in the order given; a slot is decided as soon as the quorum allows (a later report
      // is stored and counted in its location's uptime, but is not part of the decided result).
      await slot(start, {
        'eu-west-1': { up: true, ms: 80 },
        default: { up: true, ms: 20 },
        office: { up: true, ms: 35 },
      });
      await slot(start + MINUTE, {
        default: { up: true, ms: 22 },
        office: { up: false, ms: 40 },
        'eu-west-1': { up: true, ms: 85 },
      });
      // Two up of three decide it up; eu-west-1's report comes too late for the result.
      await slot(start + 2 * MINUTE, {
        default: { up: true, ms: 21 },
        office: { up: true, ms: 30 },
        'eu-west-1': { up: true, ms: 70 },
      });
      // Only default reports: inconclusive, no state moves.
      await slot(start + 3 * MINUTE, { default: { up: true, ms: 25 } });
      // Two of three down: the slot is down.
      await slot(start + 4 * MINUTE, {
        'eu-west-1': { up: true, ms: 90 },
        default: { up: false, ms: 30 },
        office: { up: false, ms: 45 },
      });
    },
  });
  afterAll(async () => {
    await table?.close();
  });

  it('shows the quorum, the last slot per location and a latency line per location', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const { page } = p;
    const section = locationsSection(page);
    await expectText(section.locator('p').first(), /^Down when 2 of 3 locations fail/);
    const last = section.getByRole('table', { name: 'Last slot per location' });
    await expectCount(last.getByRole('row'), 4);
    const row = (name: string) =>
      last.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
    await expectText(row('default').getByRole('cell').nth(0), 'down');
    await expectText(row('office').getByRole('cell').nth(0), 'down');
    await expectText(row('eu-west-1').getByRole('cell').nth(0), 'up');
    await expectText(row('eu-west-1').getByRole('cell').nth(2), '90 ms');
    await expectText(row('office').getByRole('cell').nth(3), 'connection refused');
    // One line per location over the five located results (the inconclusive one too).
    await expect
      .poll(() => section.getByRole('img').getAttribute('aria-label', { timeout: 500 }))
      .toBe(
        'Latency per location, last 5 results: default median 22 ms, office median 40 ms, eu-west-1 median 85 ms',
      );
    await expectCount(section.locator('.u-legend .u-series'), 4);
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'check-locations');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows an inconclusive slot as its own state and uptime per location', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const { page } = p;

    // The inconclusive slot is its own state in the results list.
    const results = page.getByRole('table', { name: 'Recent results' });
    await expectCount(results.getByRole('row'), 6);
    await expectCount(results.locator('.state-inconclusive'), 1);
    await expectText(results.locator('.state-inconclusive'), 'inconclusive');
    await expectCount(results.getByText('failure', { exact: true }), 1);

    // Uptime per location: each location's own reports.
    const uptime = page.getByRole('table', { name: 'Uptime per location' });
    await expectCount(uptime.getByRole('row'), 4);
    const upRow = (name: string) =>
      uptime.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
    await expectText(upRow('default').getByRole('cell').nth(0), '80 % (4 of 5 up)');
    await expectText(upRow('office').getByRole('cell').nth(0), '50 % (2 of 4 up)');
    await expectText(upRow('eu-west-1').getByRole('cell').nth(0), '100 % (4 of 4 up)');
    expect(await audit(page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('picks locations and a quorum in the check form, default first, and edits them', async () => {
    const p = await openSignedIn(rig, { path: `/checks/new?blueprint=shop&entity_id=${entityId}&type=tcp` });
    const { page } = p;
    const picker = page.getByRole('group', { name: 'Locations' });
    await expectCount(picker.getByRole('checkbox'), 3);
    await expectText(picker.locator('label').nth(0), 'default (this runtime)');
    await expectText(picker.locator('label').nth(1), 'office (private agent, offline)');
    expect(await picker.getByRole('checkbox', { name: /^default/ }).isChecked()).toBe(true);
    // One location: no quorum to choose.
    await expectCount(picker.getByLabel('Quorum'), 0);
    await picker.getByRole('checkbox', { name: /^office/ }).check();
    await picker.getByRole('checkbox', { name: /^eu-west-1/ }).check();
    const quorum = picker.getByLabel('Quorum');
    expect(await quorum.getAttribute('placeholder')).toBe('2');
    await quorum.fill('3');
    await page.getByLabel(/^Host/).fill('127.0.0.1');
    await page.getByLabel(/^Port/).fill('9');
    await page.getByLabel(/^Interval/).fill('86400');
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'check-locations-form');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/checks'));
    await page.getByRole('button', { name: 'Create check' }).click();
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ locations: LOCATIONS, quorum: 3 });
    await page.waitForURL(/\/checks\/chk_/);
    await expectText(locationsSection(page).locator('p').first(), /^Down when 3 of 3/);

    // Editing: the stored locations are ticked and the quorum shown; one fewer location with
    // quorum 3 is refused at the quorum field; blank (the majority) saves.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('group', { name: 'Locations' });
    for (const name of LOCATIONS) {
      expect(await edit.getByRole('checkbox', { name: new RegExp(`^${name}`) }).isChecked()).toBe(true);
    }
    expect(await edit.getByLabel('Quorum').inputValue()).toBe('3');
    await edit.getByRole('checkbox', { name: /^eu-west-1/ }).uncheck();
    await page.getByRole('button', { name: 'Save check' }).click();
    await expectText(edit.locator('.field-error'), /quorum|locations/i);
    await edit.getByLabel('Quorum').fill('');
    const put = page.waitForRequest((r) => r.method() === 'PUT');
    await page.getByRole('button', { name: 'Save check' }).click();
    expect((await put).postDataJSON()).toMatchObject({ locations: ['default', 'office'], quorum: null });
    await page.getByText('The check was saved.').waitFor();
    await expectText(locationsSection(page).locator('p').first(), /^Down when 2 of 2/);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('has no axe violations and no sideways scroll at 390 px', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}`, width: 390 });
    const { page } = p;
    await page.getByRole('table', { name: 'Last slot per location' }).waitFor();
    await page.getByRole('table', { name: 'Uptime per location' }).waitFor();
    expect(await audit(page)).toEqual([]);
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a read-only key the locations and no form', async () => {
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const p = await openSignedIn(rig, { path: `/checks/${checkId}`, key: created.body.key });
    const { page } = p;
    await page.getByRole('table', { name: 'Last slot per location' }).waitFor();
    await page.getByRole('table', { name: 'Uptime per location' }).waitFor();
    await expectCount(page.locator('form'), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
