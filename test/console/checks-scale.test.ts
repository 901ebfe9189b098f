import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectCount, expectNoConsoleErrors, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The checks list at 1,041 checks (push checks made through the API: nothing is probed): every
 * filter goes to the server and lives in the URL, choosing a blueprint keeps it (and fills the
 * entity filter), a down check far past the first page is found, and each row shows its last
 * results as a strip and its 24 h uptime.
 */

const FLEET_ENTITIES = 50;
const PER_ENTITY = 20;

/** Runs `make` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, make: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(make));
}

async function choose(page: Page, label: string, option: string | { label: string }) {
  await page.getByLabel(new RegExp(`^${label}`)).selectOption(option);
}

describe('console checks list at 1,000+ checks', { timeout: 240_000 }, () => {
  let downId = '';
  let firstName = '';

  const entity = async (blueprint: string, slug: string, name: string) => {
    const made = await rig.api<{ id: string }>('POST', `/v1/blueprints/${blueprint}/entities`, {
      slug,
      name,
    });
    expect(made.status).toBe(201);
    return made.body.id;
  };
  const check = async (entityId: string, name: string, extra: Record<string, unknown> = {}) => {
    const made = await rig.api<{ id: string }>('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      name,
      ...extra,
    });
    expect(made.status).toBe(201);
    return made.body.id;
  };
  const report = async (checkId: string, success: boolean, checkedAtMs = Date.now()) => {
    const res = await rig.api('POST', `/v1/checks/${checkId}/results`, {
      success,
      latency_ms: 12,
      checked_at: new Date(checkedAtMs).toISOString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };

  const rig = useConsole({
    env: { VIGIL_RATE_LIMIT_RPS: '100000', VIGIL_RATE_LIMIT_BURST: '100000' },
    seed: async (rig) => {
      for (const [slug, name] of [
        ['fleet', 'Fleet'],
        ['edge', 'Edge'],
      ]) {
        expect((await rig.api('POST', '/v1/blueprints', { slug, name })).status).toBe(201);
      }
      const fleet: string[] = [];
      for (let n = 0; n < FLEET_ENTITIES; n += 1)
        fleet.push(await entity('fleet', `node-${n}`, `Fleet node ${n}`));
      const made: { entityId: string; name: string }[] = fleet.flatMap((entityId, n) =>
        Array.from({ length: PER_ENTITY }, (_, i) => ({ entityId, name: `Heartbeat ${n}-${i}` })),
      );
      await inBatches(made.slice(0, 500), 16, async (c) => {
        await check(c.entityId, c.name);
      });
      // A check gone down, well past the first page of 100.
      const deep = await entity('fleet', 'deep', 'Deep node');
      downId = await check(deep, 'Deep down check', { failure_threshold: 1 });
      await report(downId, false);
      await inBatches(made.slice(500), 16, async (c) => {
        await check(c.entityId, c.name);
      });
      // The edge blueprint's checks come last of all.
      for (const n of [0, 1]) {
        const edge = await entity('edge', `edge-${n}`, `Edge router ${n}`);
        await inBatches(
          Array.from({ length: PER_ENTITY }, (_, i) => i),
          16,
          async (i) => {
            await check(edge, `Edge beat ${n}-${i}`);
          },
        );
      }
      // The oldest check (first row) reports four results.
      const listed = await rig.api<{ id: string; name: string }[]>('GET', '/v1/checks?limit=1');
      firstName = listed.body[0]?.name ?? '';
      for (const [i, success] of [true, true, false, true].entries()) {
        await report(listed.body[0]?.id ?? '', success, Date.now() - (4 - i) * 1000);
      }
    },
  });

  it('keeps a chosen blueprint, fills the entity filter, and lists only that blueprint from the server', async () => {
    const p = await openSignedIn(rig, { path: '/checks' });
    const rows = p.page.getByRole('table', { name: 'Checks' }).locator('tbody tr');
    await p.page.getByText('100 checks shown; more follow.').waitFor();
    await choose(p.page, 'Blueprint', { label: 'Edge' });
    await expect.poll(() => new URL(p.page.url()).searchParams.get('blueprint')).toBe('edge');
    await expect.poll(() => p.page.getByLabel(/^Blueprint/).inputValue()).toBe('edge');
    // The entity filter fills with the blueprint's entities.
    await expect
      .poll(() =>
        p.page
          .getByLabel(/^Entity/)
          .locator('option')
          .allTextContents(),
      )
      .toEqual(['All', 'Edge router 0 (edge-0)', 'Edge router 1 (edge-1)']);
    await p.page.getByText('40 checks shown.').waitFor();
    await expectCount(rows, 40);
    const entityCells = await rows.locator('td:nth-child(2)').allTextContents();
    expect(new Set(entityCells)).toEqual(new Set(['Edge router 0', 'Edge router 1']));
    await choose(p.page, 'Entity', { label: 'Edge router 1 (edge-1)' });
    await p.page.getByText('20 checks shown.').waitFor();
    expect(new URL(p.page.url()).searchParams.get('blueprint')).toBe('edge');
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual(Array(20).fill('Edge router 1'));
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('finds a down check past the first 100 with the state filter, and a link with filters reproduces the view', async () => {
    const p = await openSignedIn(rig, { path: '/checks' });
    const rows = p.page.getByRole('table', { name: 'Checks' }).locator('tbody tr');
    await p.page.getByText('100 checks shown; more follow.').waitFor();
    await expectCount(p.page.getByRole('link', { name: 'Deep down check' }), 0);
    await choose(p.page, 'State', 'down');
    await p.page.getByText('1 check shown.').waitFor();
    await expectCount(rows, 1);
    await p.page.getByRole('link', { name: 'Deep down check' }).waitFor();
    await p.page.getByLabel(/^Name contains/).fill('deep');
    await expect.poll(() => new URL(p.page.url()).searchParams.get('q')).toBe('deep');
    const link = new URL(p.page.url());
    expect(Object.fromEntries(link.searchParams)).toEqual({ state: 'down', q: 'deep' });

    const again = await openSignedIn(rig, { path: `/checks${link.search}&blueprint=fleet` });
    await again.page.getByRole('link', { name: 'Deep down check' }).waitFor();
    await again.page.getByText('1 check shown.').waitFor();
    expect(await again.page.getByLabel(/^State/).inputValue()).toBe('down');
    expect(await again.page.getByLabel(/^Blueprint/).inputValue()).toBe('fleet');
    expect(await again.page.getByLabel(/^Name contains/).inputValue()).toBe('deep');
    await again.page.getByRole('link', { name: 'Deep node' }).waitFor();
    // The check page names the entity in its heading.
    await again.page.getByRole('link', { name: 'Deep down check' }).click();
    await again.page.getByRole('heading', { level: 1, name: 'Deep node: Deep down check' }).waitFor();
    await again.page.getByText('A push check your agent reports to, every hour,').waitFor();
    expectNoConsoleErrors(p);
    expectNoConsoleErrors(again);
    await p.close();
    await again.close();
  });

  it('shows each row its last results as a strip and its 24 h uptime', async () => {
    const p = await openSignedIn(rig, { path: `/checks?${new URLSearchParams({ q: firstName })}` });
    const row = p.page.getByRole('row', { name: new RegExp(`${firstName}\\b`) });
    await row.getByText(/^Last 4 results: 3 up, 1 down; newest: (up|down)$/).waitFor();
    await expectCount(row.locator('.strip-bar'), 4);
    await expectCount(row.locator('.strip-down'), 1);
    await row.getByRole('cell', { name: '75 %' }).waitFor();
    await row.getByText('every hour').waitFor();
    await p.page.goto('/checks');
    await p.page.getByText('100 checks shown; more follow.').waitFor();
    await p.page
      .getByText(/^Last 4 results: 3 up, 1 down; newest: (up|down)$/)
      .first()
      .waitFor();
    await screenshot(p.page, 'checks-scale');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
