import { describe, expect, it, vi } from 'vitest';
import {
  expectCount,
  expectNoConsoleErrors,
  expectText,
  SHOWN_WITHIN_MS,
  screenshot,
  seedServices,
} from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * Uptime in the console against a real local runtime: a push check of an entity gets ten results
 * through the API (one failure, so one spell down); the check page and the entity page show the
 * four windows (uptime, downtime, incidents, MTTR, latency percentiles) and a 90-day bar with only
 * today measured; an SLO target set through the check's edit form adds the error budget (here
 * overspent) and the API stores it.
 */

interface Uptime {
  window: string;
  results: number;
  failures: number;
  incidents: number;
  slo_target?: number;
  error_budget_remaining?: number | null;
  latency_ms: { p50: number | null; p95: number | null; p99: number | null };
  days?: { date: string; uptime_ratio: number | null }[];
}

describe('console uptime', { timeout: 120_000 }, () => {
  let checkId: string;
  const today = new Date().toISOString().slice(0, 10);

  const rig = useConsole({
    seed: async (rig) => {
      const { billing: entityId } = await seedServices(rig, 'Billing');
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        name: 'Billing heartbeat',
        check_type: 'push',
        interval_seconds: 60,
        failure_threshold: 1,
      });
      // Up, one failure (down), up again: 10 results, 1 failed, one incident of the entity.
      for (let i = 0; i < 10; i += 1) {
        const res = await rig.api('POST', `/v1/checks/${checkId}/results`, {
          success: i !== 5,
          latency_ms: 20,
          ...(i === 5 ? { error_message: 'connection refused' } : {}),
        });
        expect(res.status).toBe(201);
      }
      // The entity's incident opens and resolves through the change consumers: wait for both.
      await vi.waitFor(
        async () => {
          const entity = await rig.api<Uptime>(
            'GET',
            '/v1/blueprints/svc/entities/billing/uptime?window=24h',
          );
          expect(entity.body.incidents).toBe(1);
          expect((await rig.api<{ state: string }>('GET', `/v1/checks/${checkId}`)).body.state).toBe('up');
        },
        { timeout: SHOWN_WITHIN_MS, interval: 200 },
      );
    },
  });

  it('shows the check’s figures for four windows and a 90-day bar with today measured', async () => {
    const answers = new Map<string, Uptime>();
    for (const w of ['24h', '7d', '30d', '90d']) {
      answers.set(w, (await rig.api<Uptime>('GET', `/v1/checks/${checkId}/uptime?window=${w}`)).body);
    }
    const u = answers.get('90d');
    expect(u).toMatchObject({ results: 10, failures: 1 });
    expect(u?.days?.at(-1)).toEqual({ date: today, uptime_ratio: 0.9 });

    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    await p.page.getByRole('heading', { level: 1, name: 'Billing heartbeat' }).waitFor();
    const table = p.page.getByRole('table', { name: 'Uptime of the check' });
    await expectCount(table.getByRole('row'), 5);
    // No SLO target yet: no budget column.
    await expectCount(table.getByRole('columnheader'), 8);
    const words = { '24h': 'Last 24 h', '7d': 'Last 7 days', '30d': 'Last 30 days', '90d': 'Last 90 days' };
    for (const [i, [w, window]] of Object.entries(words).entries()) {
      const row = table.getByRole('row').nth(i + 1);
      await expectText(row.getByRole('rowheader'), window);
      const cells = row.getByRole('cell');
      await expectText(cells.nth(0), '90 % (1 of 10 results failed)');
      await expectText(cells.nth(2), '1');
      // The percentiles as the API estimates them from the histogram (20 ms within ~9 %).
      const latency = answers.get(w)?.latency_ms;
      expect(Math.abs((latency?.p99 ?? 0) - 20)).toBeLessThanOrEqual(2);
      await expectText(cells.nth(4), `${latency?.p50} ms`);
      await expectText(cells.nth(6), `${latency?.p99} ms`);
    }

    const bar = p.page.getByRole('img', { name: /^Daily uptime, last 90 days/ });
    expect(await bar.getAttribute('aria-label')).toBe(
      `Daily uptime, last 90 days: 0 at 100 %, 1 below 100 % (lowest ${today}: 90 %), 89 without results`,
    );
    await expectCount(bar.locator('.uptime-day'), 90);
    await expectCount(bar.locator('.uptime-day-none'), 89);
    const last = bar.locator('.uptime-day').last();
    expect(await last.getAttribute('title')).toBe(`${today}: 90 %`);
    expect(await last.getAttribute('class')).toContain('uptime-day-down');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('sets an SLO target through the check form; the budget shows, overspent', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    await p.page.getByRole('button', { name: 'Edit' }).click();
    await p.page.getByLabel(/^SLO target/).fill('1.5');
    await p.page.getByRole('button', { name: 'Save check' }).click();
    await expect
      .poll(() => p.page.getByLabel(/^SLO target/).getAttribute('aria-invalid'), {
        timeout: SHOWN_WITHIN_MS,
      })
      .toBe('true');
    await p.page.getByLabel(/^SLO target/).fill('0.95');
    await p.page.getByRole('button', { name: 'Save check' }).click();
    await expectText(p.page.locator('.note-ok'), 'The check was saved.');
    expect((await rig.api<{ slo_target: number }>('GET', `/v1/checks/${checkId}`)).body.slo_target).toBe(
      0.95,
    );

    // 10 % failed against a 5 % budget: twice the budget is gone.
    const table = p.page.getByRole('table', { name: 'Uptime of the check' });
    await expectCount(table.getByRole('columnheader'), 9);
    await expectText(table.getByRole('columnheader').nth(2), 'Error budget');
    await expectText(table.getByRole('row').nth(4).getByRole('cell').nth(1), 'overspent (-100 %)');
    await expectText(
      p.page.locator('.uptime-slo'),
      'SLO target 95 % of results successful; the error budget is the 5 % that may fail.',
    );
    const u = (await rig.api<Uptime>('GET', `/v1/checks/${checkId}/uptime?window=7d`)).body;
    expect(u).toMatchObject({ slo_target: 0.95, error_budget_remaining: -1 });

    // The edit form shows the stored target; blank clears it.
    await p.page.getByRole('button', { name: 'Edit' }).click();
    expect(await p.page.getByLabel(/^SLO target/).inputValue()).toBe('0.95');
    await p.page.getByRole('button', { name: 'Cancel edit' }).click();
    await screenshot(p.page, 'uptime-check');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows the entity’s uptime over its checks, with the incident from its history', async () => {
    const p = await openSignedIn(rig, { path: '/entities/svc/billing' });
    await p.page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    const table = p.page.getByRole('table', { name: 'Uptime of the entity' });
    await expectCount(table.getByRole('row'), 5);
    // An entity has no SLO target: no budget column.
    await expectCount(table.getByRole('columnheader'), 8);
    const day = table.getByRole('row').nth(1).getByRole('cell');
    await expectText(day.nth(0), '90 % (1 of 10 results failed)');
    await expectText(day.nth(2), '1');
    await expectCount(
      p.page.getByRole('img', { name: /^Daily uptime, last 90 days/ }).locator('.uptime-day'),
      90,
    );
    await screenshot(p.page, 'uptime-entity');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
