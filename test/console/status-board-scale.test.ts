import { describe, expect, it } from 'vitest';
import { audit, expectNoConsoleErrors, openPage, screenshot, signIn } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The status board at 1,000+ entities (issue 37): each row shows its recent-results strip with a
 * text alternative and its 24 h uptime, the first rows come from one request per page (no request
 * per row), the feed leaves first results out until asked, and axe stays clean.
 */

const ENTITIES = 1010;

describe('status board at 1,000+ entities', { timeout: 240_000 }, () => {
  /** Runs `work` over `items`, `width` at a time. */
  async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < items.length) {
          const item = items[next++] as T;
          await work(item);
        }
      }),
    );
  }

  const rig = useConsole({
    env: { VIGIL_RATE_LIMIT_RPS: '0' },
    timeout: 240_000,
    seed: async (rig) => {
      // A blueprint holds at most 1,000 entities (the plan): the fleet and ten at the edge.
      for (const [slug, name] of [
        ['fleet', 'Fleet'],
        ['edge', 'Edge'],
      ]) {
        expect((await rig.api('POST', '/v1/blueprints', { slug, name })).status).toBe(201);
      }
      const slugs = Array.from({ length: ENTITIES }, (_, i) => `svc-${String(i).padStart(4, '0')}`);
      const ids = new Map<string, string>();
      await inParallel(slugs, 12, async (slug) => {
        const blueprint = Number(slug.slice(4)) < 1000 ? 'fleet' : 'edge';
        const made = await rig.api<{ id: string }>('POST', `/v1/blueprints/${blueprint}/entities`, {
          slug,
          name: `Service ${slug.slice(4)}`,
        });
        expect(made.status).toBe(201);
        ids.set(slug, made.body.id);
      });
      // Twenty entities get a push check and results: first results (unknown -> up) for all of
      // them, and one then goes down: the only change the feed shows by default.
      await inParallel(slugs.slice(0, 20), 6, async (slug) => {
        const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
          entity_id: ids.get(slug),
          check_type: 'push',
          interval_seconds: 3600,
          failure_threshold: 1,
        });
        expect(check.status).toBe(201);
        for (const success of slug === 'svc-0003' ? [true, true, false] : [true, true]) {
          const res = await rig.api('POST', `/v1/checks/${check.body.id}/results`, {
            success,
            latency_ms: 20,
            ...(success ? {} : { error_message: 'connection refused', status_code: 503 }),
          });
          expect(res.status).toBe(201);
        }
      });
    },
  });

  it('shows a strip per row from one request per page, and only real changes in the feed', async () => {
    const p = await openPage(rig);
    const { page } = p;
    const boardRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/v1/')) boardRequests.push(new URL(r.url()).pathname);
    });
    await signIn(page, rig.key);
    await page.goto('/status');
    await page.getByRole('tab', { name: 'All' }).click();
    const down = page.getByRole('row', { name: /Service 0003/ });
    await down.getByText('Last 3 results: 2 up, 1 down; newest: down').waitFor();
    await page
      .getByRole('row', { name: /Service 0010/ })
      .getByText('Last 2 results: 2 up; newest: up')
      .waitFor();
    await page
      .getByRole('row', { name: /Service 0050/ })
      .getByText('no results yet')
      .waitFor();
    expect(await page.getByTestId('recent-strip').count()).toBe(20);
    // The 24 h uptime under its column header: 2 of 3 results up, all up, none.
    const uptimeColumn = (
      await page.getByRole('table').first().getByRole('columnheader').allInnerTexts()
    ).indexOf('24 h uptime');
    expect(uptimeColumn).toBeGreaterThan(0);
    const uptimeOf = (name: RegExp) =>
      page.getByRole('row', { name }).getByRole('cell').nth(uptimeColumn).textContent();
    await expect.poll(() => uptimeOf(/Service 0003/)).toBe('66.7 %');
    await expect.poll(() => uptimeOf(/Service 0010/)).toBe('100 %');
    await expect.poll(() => uptimeOf(/Service 0050/)).toBe('–');
    // One page of 100 rows, and more on demand.
    await expect.poll(() => page.locator('tbody tr').count()).toBe(100);
    await page.getByRole('button', { name: 'Load more entities' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(200);
    // No per-row reads: the board, its counts, blueprints and the feed, never an uptime or results read.
    expect(boardRequests.filter((path) => /\/(uptime|results|sparkline)$/.test(path))).toEqual([]);

    const feed = page.getByRole('list', { name: 'State changes, newest first' });
    await feed.getByRole('listitem').filter({ hasText: 'Service 0003' }).waitFor();
    await expect.poll(() => feed.getByRole('listitem').count()).toBe(1);
    await page.getByRole('checkbox', { name: /Show first results/ }).check();
    await expect.poll(() => feed.getByRole('listitem').count()).toBeGreaterThanOrEqual(20);
    await screenshot(page, 'status-strips');
    expect(await audit(page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it("draws an entity's charts over the range picked, from the rollups", async () => {
    const p = await openSignedIn(rig, { path: '/entities/fleet/svc-0003' });
    const { page } = p;
    await page.getByRole('heading', { name: 'Service 0003', level: 1 }).waitFor();
    await page.getByRole('img', { name: /^Availability, 24 h: 3 results, 1 failure, p50 \d+ ms$/ }).waitFor();
    expect(await page.getByRole('button', { name: '24 h' }).getAttribute('aria-pressed')).toBe('true');
    for (const label of ['1 h', '7 days', '30 days']) {
      await page.getByRole('button', { name: label, exact: true }).click();
      await page
        .getByRole('img', { name: new RegExp(`^Latency, ${label}: 3 results, 1 failure, p50 \\d+ ms$`) })
        .waitFor();
      await page.getByText(`Availability, last ${label}`).waitFor();
    }
    await screenshot(page, 'entity-range-30d');
    expect(await audit(page)).toEqual([]);
    // The check page draws the same charts with the same picker.
    await page.locator('.check-card h3 a').first().click();
    await page.getByRole('heading', { name: 'Charts' }).waitFor();
    await page.getByRole('img', { name: /^Availability, 24 h: 3 results, 1 failure, p50 \d+ ms$/ }).waitFor();
    await page.getByRole('button', { name: '7 days', exact: true }).click();
    await page.getByRole('img', { name: /^Latency, 7 days: 3 results, 1 failure, p50 \d+ ms$/ }).waitFor();
    expect(await audit(page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
