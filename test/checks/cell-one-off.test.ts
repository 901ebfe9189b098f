import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getCellResults } from '../../lib/checks/cells/cell-result-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { type CellJob, createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { nextCellSlot } from '../../lib/domain/schedules/cell-slots.ts';
import { isoTime, systemClock } from '../../lib/platform/clock.ts';
import type { Prober } from '../../lib/probes/types.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/**
 * A member's one-off probe (first probe, manual run) is a slot of its own in the cell: a
 * redelivered one records nothing twice, two members' one-offs of one millisecond both stand, and
 * none takes a regular slot of the cell (whose job would then probe nobody else).
 */
describe.each(runtimes)("a cell member's one-off probe ($runtime runtime)", ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  let ids: string[];
  let cell: { cell_id: string; shard: number };
  const prober: Prober = vi.fn(async () => ({
    startedMs: Date.now(),
    outcome: { success: true, status_code: 0, latency_ms: 3, error_message: '' },
  }));
  const runner = () =>
    createCellRunner({ table: api.table, prober, tenants: api.app.tenants, clock: systemClock });
  const oneOff = (checkId: string, slotMs: number): CellJob => ({
    kind: 'cell',
    tenant_id: tenant.tenantId,
    cell_id: cell.cell_id,
    shard: cell.shard,
    slot_ms: slotMs,
    check_id: checkId,
  });
  /** The cell's last regular slot at or before now (the next one is about two hours away). */
  const lastRegular = () => {
    const schedule = { id: cell.cell_id, interval_seconds: 7200 };
    const next = nextCellSlot(schedule, Date.now() - 7_200_000);
    return next > Date.now() ? next - 7_200_000 : next;
  };
  /** A recent moment after the cell's last regular slot: a one-off there is not late. */
  const recent = () => Math.max(lastRegular() + 1, Date.now() - 1000);
  const results = async (checkId: string) =>
    (await api.request('GET', `/v1/checks/${checkId}/results`, { key: tenant.key })).body
      .results as unknown[];

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('One-offs');
    const entityId = await newEntity(api, { key: tenant.key });
    ids = [
      await newCheck(api, quietTcpCheck(entityId, { interval_seconds: 7200 }), tenant.key),
      await newCheck(api, quietTcpCheck(entityId, { interval_seconds: 7200 }), tenant.key),
    ];
    const place = (await getCheckDefinition(api.table, tenant.tenantId, ids[0] ?? ''))?.cell;
    if (!place) throw new Error('an enabled pull check runs in a cell');
    cell = place;
  });
  afterAll(async () => {
    await api.close();
  });

  it('probes the one member only, and a redelivered job records nothing twice', async () => {
    const [a = '', b = ''] = ids;
    const atMs = recent();

    const first = await runner().run(oneOff(a, atMs));
    const again = await runner().run(oneOff(a, atMs));

    expect(first).toMatchObject({ status: 'recorded', results: 1 });
    expect(again).toMatchObject({ status: 'duplicate', results: 1 });
    expect(await results(a)).toHaveLength(1);
    expect(await results(b)).toHaveLength(0);
  });

  it("keeps two members' one-offs of one millisecond apart, and off the cell's regular slots", async () => {
    const [a = '', b = ''] = ids;
    const regular = lastRegular();

    await runner().run(oneOff(a, regular));
    await runner().run(oneOff(b, regular));

    expect(await getCellResults(api.table, cell.cell_id, isoTime(regular))).toBeUndefined();
    const shifted = await getCellResults(api.table, cell.cell_id, isoTime(regular + 1));
    const next = await getCellResults(api.table, cell.cell_id, isoTime(regular + 2));
    expect(shifted?.results.map((r) => r.c)).toEqual([a]);
    expect(next?.results.map((r) => r.c)).toEqual([b]);
    expect(await results(b)).toHaveLength(1);
  });

  it('moves both members when one-offs one millisecond apart fail (nothing to catch up between them)', async () => {
    const entityId = await newEntity(api, { key: tenant.key, name: 'failing' });
    const failing = [
      await newCheck(
        api,
        quietTcpCheck(entityId, { interval_seconds: 7200, failure_threshold: 1 }),
        tenant.key,
      ),
      await newCheck(
        api,
        quietTcpCheck(entityId, { interval_seconds: 7200, failure_threshold: 1 }),
        tenant.key,
      ),
    ];
    const place = (await getCheckDefinition(api.table, tenant.tenantId, failing[0] ?? ''))?.cell;
    const down: Prober = async () => ({
      startedMs: Date.now(),
      outcome: { success: false, status_code: 0, latency_ms: 3, error_message: 'refused' },
    });
    const failingRunner = createCellRunner({
      table: api.table,
      prober: down,
      tenants: api.app.tenants,
      clock: systemClock,
    });
    const atMs = recent();

    for (const checkId of failing) {
      const job = {
        ...oneOff(checkId, atMs),
        ...(place ? { cell_id: place.cell_id, shard: place.shard } : {}),
      };
      expect(await failingRunner.run(job)).toMatchObject({ status: 'recorded', results: 1 });
    }

    for (const checkId of failing) {
      const shown = await api.request('GET', `/v1/checks/${checkId}`, { key: tenant.key });
      expect(shown.body.state).toBe('down');
    }
  });

  it('drops a first probe whose job comes after a regular slot of its cell, and runs a late manual run now', async () => {
    const entityId = await newEntity(api, { key: tenant.key, name: 'late' });
    const [first = '', manual = ''] = [
      await newCheck(api, quietTcpCheck(entityId, { interval_seconds: 7200 }), tenant.key),
      await newCheck(api, quietTcpCheck(entityId, { interval_seconds: 7200 }), tenant.key),
    ];
    // Queued before the last regular slot (a restart ran it only now): its slot's moves would be too old.
    const before = lastRegular() - 1000;
    const startedMs = Date.now();

    expect(await runner().run(oneOff(first, before))).toEqual({ status: 'gone' });
    const late = await runner().run({ ...oneOff(manual, before - 1), manual: true });

    expect(await getCellResults(api.table, cell.cell_id, isoTime(before))).toBeUndefined();
    expect(await results(first)).toHaveLength(0);
    expect(late).toMatchObject({ status: 'recorded', results: 1 });
    const slot = late.status === 'recorded' ? Date.parse(late.record.slot) : 0;
    expect(slot).toBeGreaterThanOrEqual(startedMs);
    expect(await results(manual)).toHaveLength(1);
  });

  it('re-applies a one-off under the slot it moved to (a restart finds its results)', async () => {
    const entityId = await newEntity(api, { key: tenant.key, name: 'shifted' });
    const checkId = await newCheck(api, quietTcpCheck(entityId, { interval_seconds: 7200 }), tenant.key);
    // Asked for at the cell's regular slot, the one-off is stored one millisecond on.
    const job = oneOff(checkId, lastRegular());
    await runner().run(job);

    expect(await runner().reapply(job)).toMatchObject({ stored: true });
  });

  it("moves both members when one member's one-off is applied before an older one of another", async () => {
    const entityId = await newEntity(api, { key: tenant.key, name: 'crossed' });
    const spec = quietTcpCheck(entityId, { interval_seconds: 7200, failure_threshold: 1 });
    const [a = '', b = ''] = [await newCheck(api, spec, tenant.key), await newCheck(api, spec, tenant.key)];
    const place = (await getCheckDefinition(api.table, tenant.tenantId, a))?.cell;
    if (!place) throw new Error('an enabled pull check runs in a cell');
    const down: Prober = async () => ({
      startedMs: Date.now(),
      outcome: { success: false, status_code: 0, latency_ms: 3, error_message: 'refused' },
    });
    const atMs = recent();
    const job = (checkId: string, ms: number) => ({ ...oneOff(checkId, ms), ...place });
    const later = createCellRunner({
      table: api.table,
      prober: down,
      tenants: api.app.tenants,
      clock: systemClock,
    });
    // a's results are stored first; b's (5 ms later) are stored and applied before a's are applied.
    const crossed = createCellRunner({
      table: api.table,
      prober: down,
      tenants: api.app.tenants,
      clock: systemClock,
      afterResultsStored: async () => {
        await later.run(job(b, atMs + 5));
      },
    });

    await crossed.run(job(a, atMs));

    for (const checkId of [a, b]) {
      const shown = await api.request('GET', `/v1/checks/${checkId}`, { key: tenant.key });
      expect(shown.body.state, checkId === a ? 'a (stored first, applied last)' : 'b').toBe('down');
    }
  });
});
