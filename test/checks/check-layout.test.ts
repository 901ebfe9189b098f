import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateCheckItems } from '../../lib/checks/migration/check-migration.ts';
import { storedKeys } from '../support/stored-keys.ts';

/** The check layout migration's marker, as docs/data-model.md gives its key. */
const CHECK_LAYOUT_MIGRATED = { pk: 'MIGRATION', sk: 'check-state-items' };

import { startLocalRuntime } from '../../lib/local/runtime.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Item, NewItem } from '../../lib/store/table.ts';
import { type ApiHarness, runtimes, startLocalHarness } from '../support/api-harness.ts';
import { newCheck, newEntity, quietPushCheck, quietTcpCheck, record } from './check-fixtures.ts';

/**
 * A check is two items next to each other in its tenant's partition: the definition, written only
 * by the API, and the running state, written by claims and results (docs/data-model.md). Enabled
 * pull checks run in cells (test/checks/cell-*.test.ts): the per-check layout is that of push
 * checks, which these tests use.
 */

const STATE_ATTRIBUTES = ['state', 'consecutive_failures', 'last_result_at', 'next_run_at', 'current_rollup'];

/** The check stored as the first layout did: one item with the definition, the state and the due-index keys. */
async function toFirstLayout(api: ApiHarness, checkId: string): Promise<Item> {
  const definition = await api.table.get(storedKeys.check(api.tenantId, checkId), { consistent: true });
  const state = await api.table.get(storedKeys.checkState(api.tenantId, checkId), { consistent: true });
  if (!definition || !state) throw new Error('check items missing');
  const {
    pk: _p,
    sk: _s,
    entity: _e,
    check_id: _c,
    tenant_id: _t,
    definition_version: _d,
    version: _v,
    ...running
  } = state;
  const item: NewItem = { schema_version: 1, ...definition, ...running };
  await api.table.transact([
    { type: 'put', item },
    { type: 'delete', key: storedKeys.checkState(api.tenantId, checkId) },
    { type: 'delete', key: CHECK_LAYOUT_MIGRATED },
  ]);
  return item;
}

describe.each(runtimes)('check items: definition and state ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const items = async (checkId: string) => ({
    definition: await api.table.get(storedKeys.check(api.tenantId, checkId), { consistent: true }),
    state: await api.table.get(storedKeys.checkState(api.tenantId, checkId), { consistent: true }),
  });

  beforeAll(async () => {
    api = await start({ scheduler: false });
  });
  afterAll(async () => {
    await api.close();
  });

  it('stores the definition without state and the state with the due-index keys', async () => {
    const checkId = await newCheck(api, quietPushCheck(await newEntity(api)));
    const { definition, state } = await items(checkId);
    for (const attribute of [...STATE_ATTRIBUTES, 'gsi2pk', 'gsi2sk'])
      expect(definition).not.toHaveProperty(attribute);
    expect(definition).toMatchObject({ entity: 'check', id: checkId, version: 1, gsi1sk: checkId });
    expect(state).toMatchObject({
      entity: 'check_state',
      check_id: checkId,
      state: 'unknown',
      definition_version: 1,
      version: 1,
    });
    // A push check's deadline (its due-index entry) starts with its first result.
    await record(api, checkId, { success: true, checkedAtMs: Date.now() - 1000 });
    const due = (await items(checkId)).state;
    expect(due).toMatchObject({
      entity: 'check_state',
      check_id: checkId,
      state: 'up',
      definition_version: 1,
      version: 2,
      gsi2pk: expect.stringMatching(/^DUE#\d+#\d\d$/),
    });
    expect(due?.gsi2sk).toBe(`${due?.next_run_at}#${checkId}`);
  });

  it('writes a result to the state item and leaves the definition as the API wrote it', async () => {
    const checkId = await newCheck(api, quietPushCheck(await newEntity(api)));
    const before = await items(checkId);
    await record(api, checkId, { success: true, checkedAtMs: Date.now() - 1000 });
    const after = await items(checkId);
    expect(after.definition).toEqual(before.definition);
    expect(after.state).toMatchObject({ state: 'up', version: 2, definition_version: 1 });
  });

  it('is not refused by results when the API updates the definition, and results then use the new one', async () => {
    const checkId = await newCheck(api, quietPushCheck(await newEntity(api), { failure_threshold: 3 }));
    await record(api, checkId, { success: true, checkedAtMs: Date.now() - 5000 });
    const stale = await api.app.checks.run(api.tenantId, checkId);
    const res = await api.request('PUT', `/v1/checks/${checkId}`, {
      key: api.adminKey,
      body: { failure_threshold: 1 },
    });
    expect(res.status, res.text).toBe(200);
    const { definition, state } = await items(checkId);
    expect(definition).toMatchObject({ version: 2, failure_threshold: 1 });
    expect(state).toMatchObject({ definition_version: 2, version: 3 });
    // A result that read the check before the update is refused once, then evaluated against it.
    const outcome = await api.app.recorder.record({
      tenantId: api.tenantId,
      checkId,
      success: false,
      status_code: 0,
      latency_ms: 1,
      error_message: 'connection refused',
      checkedAtMs: Date.now() - 1000,
      ...(stale ? { run: stale } : {}),
    });
    expect(outcome.status).toBe('recorded');
    expect((await api.app.checks.get(api.tenantId, checkId))?.state).toBe('down');
  });

  it('keeps a definition parsed while its version holds, and reads it again after an update', async () => {
    const checkId = await newCheck(api, quietTcpCheck(await newEntity(api)));
    const first = await api.app.checks.run(api.tenantId, checkId);
    const second = await api.app.checks.run(api.tenantId, checkId);
    expect(second?.definition).toBe(first?.definition);
    expect(Object.isFrozen(first?.definition.config)).toBe(true);
    await api.request('PUT', `/v1/checks/${checkId}`, { key: api.adminKey, body: { timeout_ms: 1234 } });
    const third = await api.app.checks.run(api.tenantId, checkId);
    expect(third?.definition).not.toBe(first?.definition);
    expect(third?.definition.timeout_ms).toBe(1234);
  });

  it('deletes both items with the check', async () => {
    const checkId = await newCheck(api, quietPushCheck(await newEntity(api)));
    expect((await api.request('DELETE', `/v1/checks/${checkId}`, { key: api.adminKey })).status).toBe(204);
    expect(await items(checkId)).toEqual({ definition: undefined, state: undefined });
    expect(await api.app.checks.run(api.tenantId, checkId)).toBeUndefined();
  });

  it('moves first-layout checks to the two items (operator command), keeping state and schedule', async () => {
    const entityId = await newEntity(api);
    const checkId = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }));
    const disabledId = await newCheck(api, quietPushCheck(entityId, { enabled: false }));
    await record(api, checkId, { success: false, checkedAtMs: Date.now() - 2000 });
    const before = await api.app.checks.get(api.tenantId, checkId);
    const disabledBefore = await api.app.checks.get(api.tenantId, disabledId);
    const first = await toFirstLayout(api, checkId);
    await toFirstLayout(api, disabledId);
    expect(await api.app.checks.get(api.tenantId, checkId)).toBeUndefined();

    expect(JSON.parse(await api.operator(['checks', 'migrate']))).toMatchObject({ checks_migrated: 2 });

    const { definition, state } = await items(checkId);
    expect(definition).not.toHaveProperty('state');
    expect(definition).not.toHaveProperty('gsi2pk');
    expect(state).toMatchObject({
      gsi2pk: first.gsi2pk,
      gsi2sk: first.gsi2sk,
      state: 'down',
      definition_version: 1,
    });
    expect(await api.app.checks.get(api.tenantId, checkId)).toEqual({ ...before, state_version: 1 });
    expect(await api.app.checks.get(api.tenantId, disabledId)).toEqual({
      ...disabledBefore,
      state_version: 1,
    });
    expect((await items(disabledId)).state).not.toHaveProperty('gsi2pk');
    // The due index finds the migrated check where the first layout had it.
    const due = await api.table.query({
      index: 'gsi2',
      pk: String(first.gsi2pk),
      sk: { op: '=', value: String(first.gsi2sk) },
    });
    expect(due.items.map((item) => item.sk)).toEqual([storedKeys.checkState(api.tenantId, checkId).sk]);

    // Done once: the marker makes later runs read nothing else; without it, nothing is left to move.
    expect(JSON.parse(await api.operator(['checks', 'migrate']))).toMatchObject({ checks_migrated: 0 });
    await api.table.transact([{ type: 'delete', key: CHECK_LAYOUT_MIGRATED }]);
    const again = await migrateCheckItems({
      table: api.table,
      tenants: api.app.tenants,
      logger: silentLogger,
      clock: systemClock,
    });
    expect(again).toBe(0);
  });
});

describe('local runtime startup', () => {
  it('moves first-layout checks before it schedules them', { timeout: 30_000 }, async () => {
    const api = await startLocalHarness({ scheduler: false });
    let restarted: Awaited<ReturnType<typeof startLocalRuntime>> | undefined;
    try {
      const checkId = await newCheck(api, quietTcpCheck(await newEntity(api)));
      const before = await api.app.checks.get(api.tenantId, checkId);
      await toFirstLayout(api, checkId);
      await api.local.stop();
      restarted = await startLocalRuntime({
        config: { ...loadConfig('local', { VIGIL_LOG_LEVEL: 'silent' }), dataDir: api.dataDir, port: 0 },
        logger: silentLogger,
        host: '127.0.0.1',
        scheduler: false,
      });
      expect(await restarted.app.checks.get(api.tenantId, checkId)).toEqual({ ...before, state_version: 1 });
      expect(await restarted.table.get(CHECK_LAYOUT_MIGRATED, { consistent: true })).toMatchObject({
        checks_moved: 1,
      });
    } finally {
      await restarted?.stop();
      await api.close();
    }
  });
});
