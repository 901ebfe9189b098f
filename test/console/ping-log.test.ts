import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newPing, type PingRecord, pingRecordedOp } from '../../lib/push/log/ping-items.ts';
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
 * The "Last pings" panel of a push check's page: each ping's time, kind, exit status and run id,
 * a run's start → end with its duration, and its body expandable as preformatted text (markup in
 * a body stays text). A read-only key sees secret-looking lines redacted. Pings are written into
 * the runtime's SQLite file as the ping receiver writes them (pingRecordedOp).
 */

const FAILED_OUTPUT = [
  '> POST /upload HTTP/1.1',
  '> Authorization: Bearer s3cr3t-token',
  'error: disk full',
  '<script>window.__pwned = true</script><b>not bold</b>',
].join('\n');

describe('console last pings', { timeout: 60_000 }, () => {
  let checkId: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-console-pings-'));

  /** Writes pings straight into the runtime's store, as the ping receiver writes them. */
  const seed = (pings: (Partial<PingRecord> & { atMs: number })[]) =>
    writeToRuntimeStore(
      dataDir,
      pings.map(({ atMs, ...fields }) => [
        pingRecordedOp(
          newPing(
            {
              check_id: checkId,
              kind: 'success',
              body: '',
              method: 'POST',
              source_ip: '203.0.113.7',
              user_agent: 'runitor/v1.3.0',
              ...fields,
            },
            atMs,
          ),
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
      const now = Date.now();
      await seed([
        { atMs: now - 3_600_000, kind: 'start', rid: 'run-41' },
        {
          atMs: now - 3_535_000,
          kind: 'exit',
          exit_status: 0,
          rid: 'run-41',
          duration_ms: 65_000,
          body: 'ok',
        },
        { atMs: now - 120_000, kind: 'start', rid: 'run-42' },
        { atMs: now - 60_000, kind: 'log', rid: 'run-42', body: 'uploaded 3 of 4 files', method: 'GET' },
        { atMs: now - 30_000, kind: 'fail', rid: 'run-42', duration_ms: 90_000, body: FAILED_OUTPUT },
      ]);
    },
  });
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows runs start → end with kind, exit status, method, run id, duration and the body as text', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const table = p.page.getByRole('table', { name: 'Last pings' });
    await table.getByRole('row').nth(5).waitFor();
    const rows = table.getByRole('row');
    await expectCount(rows, 6);
    const texts = await rows.allInnerTexts();
    // Newest first: the failed run's end, its log line and start, then the earlier run.
    expect(texts[1]).toMatch(/failure[\s\S]*POST[\s\S]*→[\s\S]*1 min 30 s[\s\S]*run-42[\s\S]*4 lines/);
    expect(texts[2]).toMatch(/log[\s\S]*GET[\s\S]*run-42[\s\S]*1 line/);
    expect(texts[3]).toMatch(/start[\s\S]*run started[\s\S]*run-42/);
    expect(texts[4]).toMatch(/exit 0[\s\S]*1 min 5 s[\s\S]*run-41/);
    expect(texts[5]).toMatch(/start[\s\S]*run started[\s\S]*run-41/);

    await rows.nth(1).getByText('4 lines').click();
    const body = rows.nth(1).locator('pre');
    await body.waitFor();
    expect(await body.textContent()).toBe(FAILED_OUTPUT);
    expect(await p.page.evaluate(() => (globalThis as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await expectCount(rows.nth(1).locator('b'), 0);
    await screenshot(p.page, 'check-last-pings');
    // The panel with rows and an open body passes the accessibility audit (axe), as every page must.
    expect(await audit(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('redacts secret-looking lines of bodies for a read-only key', async () => {
    const viewer = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });
    const p = await openSignedIn(rig, { path: `/checks/${checkId}`, key: viewer.body.key });
    const row = p.page.getByRole('table', { name: 'Last pings' }).getByRole('row').nth(1);
    await row.getByText('4 lines').click();
    const body = row.locator('pre');
    await body.waitFor();
    expect(await body.textContent()).toContain('> Authorization: ********\nerror: disk full');
    expect(await p.page.content()).not.toContain('s3cr3t-token');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
