import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEntityPointers } from '../../lib/catalog/entities/entity-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { loadPreviousLayout, type PreviousLayout, previousLayout } from '../fixtures/previous-layout/load.ts';

/**
 * `npm start` on a data directory written by the previous layout (test/fixtures/previous-layout)
 * migrates it before it serves: its enabled pull checks run in cells, with the state they had.
 */
describe('starting the local runtime on a store of the previous layout', () => {
  let dataDir: string;
  let runtime: LocalRuntime;
  let dump: PreviousLayout;

  beforeAll(async () => {
    dump = previousLayout();
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-start-migrates-'));
    const table = createSqliteTable({ db: openSqliteDatabase(join(dataDir, 'vigil.db')) });
    await loadPreviousLayout(table, dump);
    await table.close();
    const env = { VIGIL_LOG_LEVEL: 'silent', VIGIL_RATE_LIMIT_RPS: '0', VIGIL_AUTH_FAILURE_LIMIT: '0' };
    runtime = await startLocalRuntime({
      config: { ...loadConfig('local', env), dataDir, port: 0 },
      host: '127.0.0.1',
      scheduler: false,
      actionSchedule: false,
    });
  });
  afterAll(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
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
