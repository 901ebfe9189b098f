import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { storedKeys } from '../support/stored-keys.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/**
 * The per-check recorder (push checks) refuses a result of a pull check in a cell: the cell's slots
 * record those, and a result in flight across the check's move into a cell must not fork its state.
 */
describe.each(runtimes)('a per-check result of a pull check in a cell ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start({ scheduler: false, env: { VIGIL_LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await api.close();
  });

  const failure = (checkId: string) => ({
    tenantId: api.tenantId,
    checkId,
    success: false,
    status_code: 0,
    latency_ms: 3,
    error_message: 'connection refused',
    checkedAtMs: Date.now() - 1000,
  });
  const stateItem = (checkId: string) =>
    api.table.get(storedKeys.checkState(api.tenantId, checkId), { consistent: true });

  it('records nothing, answers gone and says so at debug level', async () => {
    const checkId = await newCheck(api, quietTcpCheck(await newEntity(api), { failure_threshold: 1 }));
    const before = await stateItem(checkId);
    expect(await api.app.recorder.record(failure(checkId))).toEqual({ status: 'gone' });
    expect(await stateItem(checkId)).toEqual(before);
    const shown = await api.request('GET', `/v1/checks/${checkId}`, { key: api.adminKey });
    expect(shown.body).toMatchObject({ state: 'unknown', consecutive_failures: 0, last_result_at: null });
    const results = await api.request('GET', `/v1/checks/${checkId}/results`, { key: api.adminKey });
    expect(results.body).toEqual({ results: [], next_cursor: null });
    expect(api.logs.some((line) => line.includes('result dropped: the check runs in a cell'))).toBe(true);
  });

  it('drops a result read before the check joined a cell', async () => {
    const entityId = await newEntity(api);
    const checkId = await newCheck(api, quietTcpCheck(entityId, { enabled: false, failure_threshold: 1 }));
    const stale = await api.app.checks.run(api.tenantId, checkId);
    expect(stale?.definition.cell ?? null).toBeNull();
    const on = await api.request('PUT', `/v1/checks/${checkId}`, {
      key: api.adminKey,
      body: { enabled: true },
    });
    expect(on.status, on.text).toBe(200);
    const before = await stateItem(checkId);
    const outcome = await api.app.recorder.record({ ...failure(checkId), ...(stale ? { run: stale } : {}) });
    expect(outcome).toEqual({ status: 'gone' });
    expect(await stateItem(checkId)).toEqual(before);
    const shown = await api.request('GET', `/v1/checks/${checkId}`, { key: api.adminKey });
    expect(shown.body).toMatchObject({ enabled: true, state: 'unknown', consecutive_failures: 0 });
    const results = await api.request('GET', `/v1/checks/${checkId}/results`, { key: api.adminKey });
    expect(results.body.results).toEqual([]);
  });
});
