import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEntityPointers } from '../../lib/catalog/entities/entity-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import { loadPreviousLayout, type PreviousLayout, previousLayout } from '../fixtures/previous-layout/load.ts';
import { startOnPreviousData, type UpgradedRuntime } from '../support/previous-data-dir.ts';

/**
 * `npm start` on a data directory written by the previous layout (test/fixtures/previous-layout)
 * migrates it before it serves: its enabled pull checks run in cells, with the state they had.
 */
describe('starting the local runtime on a store of the previous layout', () => {
  let started: UpgradedRuntime | undefined;
  let runtime: LocalRuntime;
  let dump: PreviousLayout;

  beforeAll(async () => {
    dump = previousLayout();
    started = await startOnPreviousData('vigil-start-migrates-', (table) => loadPreviousLayout(table, dump));
    runtime = started.runtime;
  });
  afterAll(async () => {
    await started?.stop();
  });

  const shown = async (checkId: string) => {
    const res = await fetch(`${runtime.url}/v1/checks/${checkId}`, {
      headers: { authorization: `Bearer ${dump.api_key}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { state: string; consecutive_failures: number };
  };

  it('moves the enabled pull checks into cells before it serves, keeping what the API shows', async () => {
    expect(runtime.bootstrapKey).toBeUndefined();
    for (const id of [dump.checks.healthy, dump.checks.down, dump.checks.flaky]) {
      expect((await getCheckDefinition(runtime.table, dump.tenant_id, id))?.cell).toMatchObject({
        cell_id: expect.stringMatching(/^cel_/),
      });
    }
    expect(await shown(dump.checks.down)).toMatchObject({ state: 'down', consecutive_failures: 3 });
    expect(await shown(dump.checks.flaky)).toMatchObject({ state: 'up', consecutive_failures: 1 });
    for (const id of [dump.checks.disabled, dump.checks.push]) {
      expect((await getCheckDefinition(runtime.table, dump.tenant_id, id))?.cell ?? null).toBeNull();
    }
    // Its entity's id pointer, stored without a name, carries it now (search_entities' indexes).
    expect(await listEntityPointers(runtime.table, dump.tenant_id)).toEqual([
      { id: dump.entity_id, blueprint_slug: 'service', slug: 'api', name: 'API' },
    ]);
  });
});
