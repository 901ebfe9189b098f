import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_MAX_MS, REFRESH_MIN_MS, refreshDelay } from '../../web/src/live/refresh.ts';
import { expectNoConsoleErrors, SHOWN_WITHIN_MS, seedEntity } from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * "Last result" and "next run" stay current without a reload (issue 25, item 6): a check that
 * stays up changes no state, so the status stream says nothing; the pages read again after each
 * run is due, within a bound.
 */

describe('when a page reads again', () => {
  const now = Date.parse('2026-01-01T00:00:00.000Z');
  const at = (ms: number) => new Date(now + ms).toISOString();

  it('reads again just after the soonest next run', () => {
    expect(refreshDelay([at(10_000), at(5_000), null], now)).toBe(6_000);
  });

  it('waits at least the floor and at most the ceiling', () => {
    expect(refreshDelay([at(100)], now)).toBe(REFRESH_MIN_MS);
    expect(refreshDelay([at(100)], now, 10_000)).toBe(10_000);
    expect(refreshDelay([at(3_600_000)], now)).toBe(REFRESH_MAX_MS);
    expect(refreshDelay([], now)).toBe(REFRESH_MAX_MS);
  });

  it('asks soon while a due run is under way, and seldom once nothing runs it', () => {
    expect(refreshDelay([at(-2_000)], now)).toBe(REFRESH_MIN_MS);
    expect(refreshDelay([at(-600_000)], now)).toBe(REFRESH_MAX_MS);
  });
});

describe('console pages follow runs without a reload', { timeout: 90_000 }, () => {
  let target: Server;
  let checkId = '';
  let actionId = '';

  beforeAll(async () => {
    target = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });
  const rig = useConsole({
    seed: async (rig) => {
      const entityId = await seedEntity(
        rig,
        { slug: 'service', name: 'Service' },
        { slug: 'checkout', name: 'Checkout' },
      );
      // Probed every 2 s and always up: its state never changes after the first result.
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        check_type: 'http',
        target_url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`,
        interval_seconds: 2,
        timeout_ms: 1000,
      });
      const action = await rig.api<{ id: string }>('POST', '/v1/actions', {
        name: 'cache warm-up',
        method: 'POST',
        url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/warm`,
        trigger_type: 'manual',
      });
      expect(action.status).toBe(201);
      actionId = action.body.id;
    },
  });
  afterAll(async () => {
    await new Promise((resolve) => target?.close(resolve));
  });

  /** The ISO time a <time> element shows ('' while it says "never"). */
  const shownTime = async (locator: Locator) =>
    (await locator
      .locator('time')
      .getAttribute('datetime', { timeout: 500 })
      .catch(() => null)) ?? '';
  /** Waits until the shown time is later than `after` (the page never reloads: see the marker). */
  const expectLaterThan = async (locator: Locator, after: string) => {
    await expect
      .poll(() => shownTime(locator), { timeout: SHOWN_WITHIN_MS, message: `a time later than ${after}` })
      .toSatisfy((shown: string) => shown > after);
  };
  const markNoReload = (page: Page) => page.evaluate('window.__noReload = true');
  const expectNoReload = async (page: Page) =>
    expect(await page.evaluate('window.__noReload === true')).toBe(true);

  it('shows each new result and the next run on the check page', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const { page } = p;
    const stat = (name: string) =>
      page.locator('.stat').filter({ has: page.getByText(name, { exact: true }) });
    const lastResult = stat('Last result');
    const nextRun = stat('Next run');
    await expect.poll(() => shownTime(lastResult)).not.toBe('');
    const first = { last: await shownTime(lastResult), next: await shownTime(nextRun) };
    const results = page.getByRole('table', { name: 'Recent results' }).getByRole('row');
    const rowsBefore = await results.count();
    await markNoReload(page);

    await expectLaterThan(lastResult, first.last);
    await expectLaterThan(nextRun, first.next);
    await expect.poll(() => results.count()).toBeGreaterThan(rowsBefore);
    await expectNoReload(page);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows each new result on the checks list and the entity page', async () => {
    const p = await openSignedIn(rig, { path: '/checks' });
    const { page } = p;
    const cell = page.getByRole('table', { name: 'Checks' }).getByRole('row').nth(1).getByRole('cell').last();
    await expect.poll(() => shownTime(cell)).not.toBe('');
    const listed = await shownTime(cell);
    await markNoReload(page);
    await expectLaterThan(cell, listed);
    await expectNoReload(page);

    await page.goto('/entities/service/checkout');
    const newest = page.getByRole('table', { name: 'Recent results' }).getByRole('row').nth(1);
    await expect.poll(() => shownTime(newest)).not.toBe('');
    const shown = await shownTime(newest);
    await markNoReload(page);
    await expectLaterThan(newest, shown);
    await expectNoReload(page);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a run started elsewhere on the action page', async () => {
    const p = await openSignedIn(rig, { path: `/actions/${actionId}` });
    const { page } = p;
    await page.getByText('No executions yet.').waitFor();
    await markNoReload(page);
    // Run by someone else (an API call, not this page's Run button).
    expect((await rig.api('POST', `/v1/actions/${actionId}/run`, {})).status).toBe(200);
    // The executions list reads again every 10 s: the bound is a little over that.
    const rows = page.getByRole('region', { name: 'Executions' }).getByRole('row');
    await expect.poll(() => rows.count(), { timeout: 2 * SHOWN_WITHIN_MS }).toBe(2);
    await rows.nth(1).getByText('manual').waitFor();
    await expectNoReload(page);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
