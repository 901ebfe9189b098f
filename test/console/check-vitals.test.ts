import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { composeProbing } from '../../lib/locations/compose-probing.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import {
  audit,
  expectCount,
  expectNoConsoleErrors,
  expectText,
  SHOWN_WITHIN_MS,
  screenshot,
  seedEntity,
} from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * A browser check's Web Vitals on its page in the console (issue 57), against a real local runtime.
 * Its runs' results, vitals included, are recorded through the result recorder over the runtime's own
 * SQLite file, as its browser runs record them (a Chromium run reports whatever the page measured;
 * these are figures the test knows): the page charts LCP and TTFB in ms and CLS on an axis of its own
 * over the results with vitals, with a legend, and says the latest values in words. A browser check
 * with no vitals yet says so, and an http check's page has no Web Vitals card.
 */

const MINUTE = 60_000;

type Vitals = { lcp_ms?: number; cls?: number; ttfb_ms?: number };

/** The check page's Web Vitals card. */
const vitalsSection = (page: Page) =>
  page.locator('section.card', {
    has: page.getByRole('heading', { level: 2, name: 'Web Vitals', exact: true }),
  });

/** A browser check's steps: never run here (an hour's interval, no first probe). */
const browserCheck = (entityId: string, name: string) => ({
  entity_id: entityId,
  check_type: 'browser',
  name,
  interval_seconds: 3600,
  timeout_ms: 30_000,
  config: { steps: [{ action: 'goto', url: 'http://127.0.0.1:9/' }] },
});

describe('console: a browser check’s Web Vitals', { timeout: 120_000 }, () => {
  let table: SqliteTable;
  let measuredId = '';
  let unmeasuredId = '';
  let httpId = '';
  const clock = createFakeClock(Date.now());

  const rig = useConsole({
    env: { VIGIL_FIRST_PROBE: 'false', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' },
    seed: async (rig) => {
      const entityId = await seedEntity(rig, { slug: 'web', name: 'Web' }, { slug: 'shop', name: 'Shop' });
      measuredId = await seedCheck(rig, browserCheck(entityId, 'Shop home'));
      unmeasuredId = await seedCheck(rig, browserCheck(entityId, 'Shop sign-in'));
      httpId = await seedCheck(rig, {
        entity_id: entityId,
        check_type: 'http',
        name: 'Shop health',
        interval_seconds: 3600,
        target_url: 'http://127.0.0.1:9/health',
      });
      // The runtime's SQLite file, opened beside it as the operator CLI opens it.
      table = createSqliteTable({ db: openSqliteDatabase(join(rig.dataDir, 'vigil.db')) });
      const { tenants, recorder } = composeProbing({
        table,
        clock,
        logger: silentLogger,
        config: { dueShards: loadConfig('local', {}).dueShards, allowPrivateTargets: true },
      });
      const tenantId = (await tenants.listTenants())[0]?.id ?? '';
      const start = Date.now() - 10 * MINUTE;
      const run = async (checkId: string, at: number, vitals: Vitals | undefined) => {
        clock.set(at + 1000);
        const outcome = await recorder.record({
          tenantId,
          checkId,
          success: vitals !== undefined,
          status_code: 0,
          latency_ms: 1500,
          error_message: vitals ? '' : 'step 1 (goto): net::ERR_CONNECTION_REFUSED',
          checkedAtMs: at,
          details: {
            steps: [{ action: 'goto', outcome: vitals ? 'passed' : 'failed', ms: 1400 }],
            ...(vitals ? { vitals } : {}),
          },
        });
        expect(outcome.status).toBe('recorded');
      };
      // Oldest first: a run that failed before its page loaded reports no vitals, one page no LCP.
      await run(measuredId, start, { lcp_ms: 1480.4, cls: 0.12, ttfb_ms: 210 });
      await run(measuredId, start + MINUTE, undefined);
      await run(measuredId, start + 2 * MINUTE, { cls: 0.05, ttfb_ms: 160.6 });
      await run(measuredId, start + 3 * MINUTE, { lcp_ms: 1180, cls: 0.0214, ttfb_ms: 95 });
      await run(unmeasuredId, start, undefined);
    },
  });
  afterAll(async () => {
    await table?.close();
  });

  it('charts LCP, TTFB and CLS over the results with vitals and says the latest values', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${measuredId}` });
    const { page } = p;
    const section = vitalsSection(page);
    await expectText(
      section.locator('.vitals-latest'),
      /^Latest \(.+\): LCP 1180 ms, TTFB 95 ms, CLS 0\.021$/,
    );
    await expectText(section.locator('figcaption'), /last 3 results with vitals$/);
    expect(await section.getByRole('img').getAttribute('aria-label')).toBe(
      'Web Vitals, last 3 results; latest: LCP 1180 ms, TTFB 95 ms, CLS 0.021',
    );
    // The legend: the time, then LCP, TTFB and CLS.
    await expectCount(section.locator('.u-legend .u-series'), 4);
    expect(await section.locator('.u-legend .u-series .u-label').allInnerTexts()).toEqual([
      'Time',
      'LCP ms',
      'TTFB ms',
      'CLS',
    ]);
    await expectCount(section.locator('canvas'), 1);
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'check-vitals');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('has no sideways scroll at 390 px', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${measuredId}`, width: 390 });
    const { page } = p;
    await expectCount(vitalsSection(page).locator('canvas'), 1);
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('says a browser check has no vitals yet while none of its results carries them', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${unmeasuredId}` });
    const { page } = p;
    const section = vitalsSection(page);
    await expectText(section.locator('p'), 'No result has Web Vitals yet.');
    await expectCount(section.getByRole('img'), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows no Web Vitals card on an http check’s page', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${httpId}` });
    const { page } = p;
    // The page is drawn (its charts and results), and has no Web Vitals card.
    await page
      .getByRole('heading', { level: 2, name: 'Recent results' })
      .waitFor({ timeout: SHOWN_WITHIN_MS });
    await page.getByRole('heading', { level: 2, name: 'Charts' }).waitFor({ timeout: SHOWN_WITHIN_MS });
    await expectCount(page.getByRole('heading', { name: 'Web Vitals' }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
