import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newRunId, type RunRecord, runWrittenOp } from '../../lib/push/runs/run-items.ts';
import {
  audit,
  expectCount,
  expectNoConsoleErrors,
  screenshot,
  seedEntity,
  writeToRuntimeStore,
} from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * A heartbeat's runs on its page (issue 78 point 4): one bar per run, oldest left, as tall as it
 * took, a flagged run marked; the sentence above says the runs, their median and flags; a bar opens
 * the run's times, outcome, flags and log excerpt (as text); the checks list shows the last run
 * beside the heartbeat's state. Runs are written into the runtime's SQLite file as the ping
 * service writes them (runWrittenOp).
 */

const MINUTE = 60_000;

describe('console runs of a heartbeat', { timeout: 60_000 }, () => {
  let checkId: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-console-runs-'));

  type Seeded = {
    startMs: number;
    tookMs: number;
    outcome?: RunRecord['outcome'];
    flags?: RunRecord['flags'];
    log?: string;
  };
  /** Writes runs straight into the runtime's store, as the ping service writes them. */
  const seed = (runs: Seeded[]) =>
    writeToRuntimeStore(
      dataDir,
      runs.map((r) => [
        runWrittenOp(
          {
            id: newRunId(r.startMs),
            check_id: checkId,
            started_at: new Date(r.startMs).toISOString(),
            ended_at: new Date(r.startMs + r.tookMs).toISOString(),
            duration_ms: r.tookMs,
            outcome: r.outcome ?? 'success',
            flags: r.flags ?? [],
            ...(r.log ? { log_excerpt: r.log } : {}),
          },
          30,
        ),
      ]),
    );

  const rig = useConsole({
    env: { VIGIL_DATA_DIR: dataDir },
    seed: async (rig) => {
      const entityId = await seedEntity(
        rig,
        { slug: 'jobs', name: 'Jobs' },
        { slug: 'backup', name: 'Backup' },
      );
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        check_type: 'push',
        interval_seconds: 86_400,
        name: 'Nightly backup',
      });
      const day = 24 * 60 * MINUTE;
      const start = Date.now() - 8 * day;
      await seed([
        ...Array.from({ length: 6 }, (_, i) => ({ startMs: start + i * day, tookMs: (40 + i) * MINUTE })),
        {
          startMs: start + 6 * day,
          tookMs: 4_000,
          outcome: 'fail' as const,
          flags: ['too_short' as const],
          log: 'backup: nothing to copy\n<b>not bold</b>',
        },
      ]);
    },
  });
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows each run as a bar, the flagged one marked, and a run’s details on click', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const chart = p.page.getByTestId('run-chart');
    await chart.waitFor();
    const bars = chart.getByRole('button');
    await expectCount(bars, 7);
    await expectCount(chart.locator('.run-flagged'), 1);
    const words = await p.page.getByText(/^Last 7 runs/).textContent();
    // The normal is learned from the successful runs (six: still learning, so it flags nothing).
    expect(words).toBe(
      'Last 7 runs; median 42 min; normal 40 min 15 s to 44 min 45 s (still learning); 1 flagged',
    );
    await expectCount(chart.locator('.run-band.learning'), 1);
    // Oldest left: the short failed run is the newest, on the right.
    const last = bars.nth(6);
    expect(await last.getAttribute('aria-label')).toBe('fail, 4 s, flagged too_short');
    await last.click();
    const detail = p.page.getByTestId('run-detail');
    await detail.waitFor();
    const text = await detail.textContent();
    expect(text).toMatch(/Took\s*4 s/);
    expect(text).toMatch(/Flags\s*too short/);
    expect(await detail.locator('pre').textContent()).toBe('backup: nothing to copy\n<b>not bold</b>');
    await expectCount(detail.locator('b'), 0);
    await screenshot(p.page, 'check-runs');
    expect(await audit(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a heartbeat’s last run beside its state in the checks list', async () => {
    const p = await openSignedIn(rig, { path: '/checks' });
    const row = p.page.getByRole('row').filter({ hasText: 'Nightly backup' });
    const last = row.getByTestId('last-run');
    await last.waitFor();
    expect(await last.textContent()).toBe('last run fail, 4 s');
    expect(await audit(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
