import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileArtifactStore, slotScope, storeArtifacts } from '../../lib/checks/probing.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { locateForConsole } from './located-rig.ts';
import { audit, expectCount, expectNoConsoleErrors, expectText, seedEntity } from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * A located browser check's Locations card in the console against a real local runtime: each
 * location's newest row shows its step log (the results list's component), and the default
 * location's row, which lists a stored screenshot, shows it beside its step. The slot is reported
 * through the location decider over the runtime's own SQLite file; the screenshot is stored in the
 * runtime's artifact directory under the slot's result id, as the job runner stores it.
 */

/** A 1×1 JPEG. */
const JPEG =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==';

describe('console located browser check steps', { timeout: 120_000 }, () => {
  let table: SqliteTable;
  let checkId = '';
  const clock = createFakeClock(Date.now());

  const rig = useConsole({
    seed: async (rig) => {
      expect((await rig.api('POST', '/v1/locations', { name: 'office', kind: 'agent' })).status).toBe(201);
      const entityId = await seedEntity(
        rig,
        { slug: 'shop', name: 'Shop' },
        { slug: 'checkout', name: 'Checkout' },
      );
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        name: 'Checkout journey',
        check_type: 'browser',
        interval_seconds: 3600,
        config: { steps: [{ action: 'goto', url: 'http://127.0.0.1:9/' }, { action: 'screenshot' }] },
        enabled: false,
      });
      const located = await locateForConsole(rig, checkId, {
        locations: ['default', 'office'],
        quorum: 1,
        clock,
      });
      table = located.table;
      const { tenantId, decider } = located;
      const slotMs = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
      const artifacts = await storeArtifacts(
        { artifacts: createFileArtifactStore(join(rig.dataDir, 'artifacts')), logger: silentLogger },
        slotScope({ tenant_id: tenantId, check_id: checkId, slot_ms: slotMs }),
        { screenshots: [{ step: 1, jpeg: JPEG }] },
      );
      const steps = (second: 'passed' | 'failed') => [
        { action: 'goto', outcome: 'passed', ms: 40 },
        {
          action: 'screenshot',
          outcome: second,
          ms: 12,
          ...(second === 'failed' ? { error: 'page crashed' } : {}),
        },
      ];
      clock.set(slotMs + 1000);
      const result = (success: boolean) => ({
        success,
        status_code: 0,
        latency_ms: 60,
        error_message: success ? '' : 'step 2 (screenshot): page crashed',
        checked_at: new Date(slotMs).toISOString(),
      });
      for (const [location, report] of [
        ['default', { ...result(true), details: { steps: steps('passed'), artifacts } }],
        ['office', { ...result(false), details: { steps: steps('failed') } }],
      ] as const) {
        expect(await decider.report({ tenantId, checkId, slotMs, location, result: report })).toBe(
          'recorded',
        );
      }
    },
  });
  afterAll(async () => {
    await table?.close();
  });

  it("shows each location's step log, and the default location's screenshot", async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const { page } = p;
    const list = page.getByRole('list', { name: 'Steps per location' });
    await expectCount(list.getByRole('listitem').filter({ has: page.locator('details') }), 2);
    const office = list.locator('> li', { hasText: /^office/ });
    await expectText(office.locator('summary'), '2 steps, failed at "2. screenshot"');
    const home = list.locator('> li', { hasText: /^default/ });
    await expectText(home.locator('summary'), '2 steps');
    await home.locator('summary').click();
    const shot = home.getByRole('img', { name: 'Screenshot at step 2' });
    await shot.waitFor();
    expect(await shot.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    expect(await audit(page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
