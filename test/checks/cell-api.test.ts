import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { Prober } from '../../lib/probes/types.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/** A pull check in a cell, through the API: its state, last result, next run and results come from the cell. */
describe.each(runtimes)('the API of a pull check in a cell ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Cellview');
  });
  afterAll(async () => {
    await api.close();
  });

  const prober =
    (success: boolean): Prober =>
    async () => ({
      startedMs: Date.now(),
      outcome: { success, status_code: 0, latency_ms: 7, error_message: success ? '' : 'connection refused' },
    });

  it('joins a cell on create and shows what the cell recorded', async () => {
    const entityId = await newEntity(api, { key: tenant.key });
    const id = await newCheck(api, quietTcpCheck(entityId, { interval_seconds: 60 }), tenant.key);
    const created = await api.request('GET', `/v1/checks/${id}`, { key: tenant.key });
    expect(created.body).toMatchObject({ state: 'unknown', last_result_at: null });
    expect(created.body.next_run_at).toEqual(expect.any(String));

    const definition = await getCheckDefinition(api.table, tenant.tenantId, id);
    const cell = definition?.cell;
    if (!cell) throw new Error('an enabled pull check runs in a cell');
    const run = (success: boolean, slotMs: number) =>
      createCellRunner({
        table: api.table,
        prober: prober(success),
        tenants: api.app.tenants,
        clock: systemClock,
      }).run({
        kind: 'cell',
        tenant_id: tenant.tenantId,
        cell_id: cell.cell_id,
        shard: cell.shard,
        slot_ms: slotMs,
      });
    // Recent slots: results expire with the tenant's retention, counted from their slot.
    const t0 = Math.floor(Date.now() / 60_000) * 60_000 - 120_000;
    await run(true, t0);
    await run(false, t0 + 60_000);

    const shown = await api.request('GET', `/v1/checks/${id}`, { key: tenant.key });
    expect(shown.body).toMatchObject({ state: 'up', consecutive_failures: 1 });
    expect(Date.parse(shown.body.last_result_at)).toBeGreaterThan(0);
    const results = await api.request('GET', `/v1/checks/${id}/results?limit=1`, { key: tenant.key });
    expect(results.status).toBe(200);
    expect(results.body.results).toEqual([
      expect.objectContaining({
        check_id: id,
        success: false,
        error_message: 'connection refused',
        latency_ms: 7,
      }),
    ]);
    const next = await api.request(
      'GET',
      `/v1/checks/${id}/results?limit=1&cursor=${encodeURIComponent(results.body.next_cursor)}`,
      {
        key: tenant.key,
      },
    );
    expect(next.body.results).toEqual([expect.objectContaining({ success: true })]);
    expect(next.body.next_cursor).toBeNull();
  });
});
