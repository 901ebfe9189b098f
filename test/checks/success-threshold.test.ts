import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/**
 * Issue 35: `success_threshold` through the API, on both paths of a result — a pull check's cell
 * slot and a push check's reported result — in both runtimes.
 */
describe.each(runtimes)('success_threshold ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  let at = Date.now() - 600_000;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: tenant.key, ...(body !== undefined ? { body } : {}) });
  const read = async (id: string) => (await call('GET', `/v1/checks/${id}`)).body;
  const moves = async (id: string) =>
    (await call('GET', `/v1/checks/${id}/transitions`)).body.transitions
      .map((t: { from_state: string; to_state: string }) => `${t.from_state}->${t.to_state}`)
      .reverse();

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Flappy');
  });
  afterAll(async () => {
    await api.close();
  });

  it('keeps a pull check down until three successes in a row (a failure restarts the count)', async () => {
    const entityId = await newEntity(api, { key: tenant.key });
    const checkId = await newCheck(
      api,
      quietTcpCheck(entityId, { failure_threshold: 1, success_threshold: 3 }),
      tenant.key,
    );
    expect(await read(checkId)).toMatchObject({ success_threshold: 3 });
    const step = async (success: boolean) => {
      at += 1000;
      await runCellSlot(api, { slotMs: at, answers: { [checkId]: success }, tenantId: tenant.tenantId });
      return (await read(checkId)).state;
    };
    // unknown → up on the first success, whatever the threshold.
    expect(await step(true)).toBe('up');
    expect(await step(false)).toBe('down');
    expect(await step(true)).toBe('down');
    expect(await step(true)).toBe('down');
    expect(await step(false)).toBe('down');
    expect(await step(true)).toBe('down');
    expect(await step(true)).toBe('down');
    expect(await step(true)).toBe('up');
    expect(await moves(checkId)).toEqual(['unknown->up', 'up->down', 'down->up']);
  });

  it('keeps a push check down until two successes, and an update changes the threshold', async () => {
    const entityId = await newEntity(api, { key: tenant.key });
    const created = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.success_threshold).toBe(1);
    const checkId = created.body.id;
    const updated = await call('PUT', `/v1/checks/${checkId}`, { success_threshold: 2 });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.success_threshold).toBe(2);
    const report = async (success: boolean) => {
      const res = await call('POST', `/v1/checks/${checkId}/results`, {
        success,
        latency_ms: 5,
        error_message: success ? '' : 'boom',
      });
      expect(res.status, res.text).toBe(201);
      return (await read(checkId)).state;
    };
    expect(await report(false)).toBe('down');
    expect(await report(true)).toBe('down');
    expect(await report(true)).toBe('up');
    expect(await moves(checkId)).toEqual(['unknown->down', 'down->up']);
  });
});
