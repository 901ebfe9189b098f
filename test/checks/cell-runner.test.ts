import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cellCreatedOp } from '../../lib/checks/cells/cell-items.ts';
import { cellStateOp, getCellResults, getCellState } from '../../lib/checks/cells/cell-result-items.ts';
import { createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { Prober } from '../../lib/probes/types.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/**
 * A cell's slot (issue 26's layout): a healthy slot is one results item and nothing else; a slot
 * that moves a member writes the cell's state with the transitions and the entity's aggregate; a
 * redelivered slot records nothing twice.
 */
describe.each(runtimes)('a cell of pull checks ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Cellular');
  });
  afterAll(async () => {
    await api.close();
  });

  /** A prober answering each check by its port: ports in `down` fail. */
  const proberFor = (down: Set<number>): Prober =>
    vi.fn(async (def) => {
      const port = def.check_type === 'tcp' ? def.port : 0;
      const ok = !down.has(port);
      return {
        startedMs: Date.now(),
        outcome: {
          success: ok,
          status_code: 0,
          latency_ms: 3,
          error_message: ok ? '' : 'connection refused',
        },
      };
    });

  /** The cell runner over this harness, its prober failing the ports in `down`. */
  const runnerFor = (down: Set<number>) =>
    createCellRunner({
      table: api.table,
      prober: proberFor(down),
      tenants: api.app.tenants,
      clock: systemClock,
    });

  /**
   * Puts cell `id` of the checks `ids` (shard 0, every 60 s); checks enter a cell unknown (the
   * API's join writes them into the state item). Answers the cell and its job for a slot.
   */
  const putCell = async (id: string, ids: string[]) => {
    const cell = {
      id,
      tenant_id: tenant.tenantId,
      shard: 0,
      interval_seconds: 60,
      members: Object.fromEntries(ids.map((c) => [c, 1])),
      version: 1,
      created_at: new Date().toISOString(),
    };
    await api.table.transact([
      cellCreatedOp(cell),
      cellStateOp(
        {
          cell_id: cell.id,
          tenant_id: tenant.tenantId,
          last_slot: '',
          members: Object.fromEntries(
            ids.map((c) => [c, { state: 'unknown', consecutive_failures: 0, slot: '' }]),
          ),
          version: 1,
        },
        undefined,
      ),
    ]);
    const job = (slotMs: number) => ({
      kind: 'cell' as const,
      tenant_id: tenant.tenantId,
      cell_id: cell.id,
      shard: 0,
      slot_ms: slotMs,
    });
    return { cell, job };
  };
  const t0 = Date.parse('2026-01-01T00:00:00.000Z');

  it('stores a healthy slot as one item, moves states only on change, and records a redelivered slot once', async () => {
    const entityId = await newEntity(api, { key: tenant.key });
    const ids = [
      await newCheck(api, quietTcpCheck(entityId, { config: { host: '127.0.0.1', port: 9001 } }), tenant.key),
      await newCheck(
        api,
        quietTcpCheck(entityId, { config: { host: '127.0.0.1', port: 9002 }, failure_threshold: 1 }),
        tenant.key,
      ),
    ];
    const { cell, job } = await putCell('cel_01JD0000000000000000000001', ids);

    // First slot: both succeed; the unknown checks go up, a change the state item records.
    const healthy = runnerFor(new Set());
    const first = await healthy.run(job(t0));
    expect(first).toMatchObject({ status: 'recorded', results: 2 });
    if (first.status === 'gone') throw new Error('the cell is there');
    expect(first.transitions.filter((t) => t.kind === 'check').map((t) => t.to_state)).toEqual(['up', 'up']);
    // Up with no failures: members left out of the state item.
    expect((await getCellState(api.table, cell.id))?.members).toEqual({});

    // A healthy slot: one put of the results, no transaction of states.
    const transact = vi.spyOn(api.table, 'transact');
    const second = await healthy.run(job(t0 + 60_000));
    expect(second).toMatchObject({ status: 'recorded', results: 2, transitions: [] });
    // (The notify flow may write its own meanwhile: only the writes of cell items count.)
    const cellWrites = transact.mock.calls
      .map(([ops]) => ops.map((op) => (op.type === 'put' ? op.item.entity : `${op.type} ${op.key.pk}`)))
      .filter((entities) => entities.some((e) => e.startsWith('cell') || e.includes('CELLRES#')));
    expect(cellWrites).toEqual([['cell_results']]);
    transact.mockRestore();

    // Port 9002 fails (threshold 1: down); 9001 stays up.
    const failing = runnerFor(new Set([9002]));
    const third = await failing.run(job(t0 + 120_000));
    if (third.status === 'gone') throw new Error('the cell is there');
    // One check up, one down: the entity is down (the worst check wins, issue 35).
    expect(third.transitions.map((t) => [t.kind, t.to_state])).toEqual([
      ['check', 'down'],
      ['entity', 'down'],
    ]);
    const state = await getCellState(api.table, cell.id);
    expect(state?.members).toEqual({
      [ids[1] as string]: { state: 'down', consecutive_failures: 1, slot: '2026-01-01T00:02:00.000Z' },
    });
    const entity = await api.request('GET', `/v1/status`, { key: tenant.key });
    expect(entity.status).toBe(200);

    // Redelivered: the stored results stand, nothing moves twice.
    const again = await runnerFor(new Set()).run(job(t0 + 120_000));
    expect(again).toMatchObject({ status: 'duplicate', transitions: [] });
    const stored = await getCellResults(api.table, cell.id, '2026-01-01T00:02:00.000Z');
    expect(stored?.results.map((r) => [r.c, r.ok])).toEqual(
      [
        [ids[0], true],
        [ids[1], false],
      ].sort(),
    );
    expect((await getCellState(api.table, cell.id))?.version).toBe(state?.version);
  });

  it('applies a slot whose worker died between its results and its state before a later slot moves the cell', async () => {
    // Prepare: a threshold-2 check in its cell, entered unknown.
    const entityId = await newEntity(api, { key: tenant.key });
    const id = await newCheck(
      api,
      quietTcpCheck(entityId, { config: { host: '127.0.0.1', port: 9011 }, failure_threshold: 2 }),
      tenant.key,
    );
    const { cell, job } = await putCell('cel_01JD0000000000000000000002', [id]);
    const down = new Set([9011]);
    const deps = { table: api.table, prober: proberFor(down), tenants: api.app.tenants, clock: systemClock };
    const runner = createCellRunner(deps);
    // The fault seam: the worker dies after the slot's results are stored (its message comes back late).
    const dying = createCellRunner({
      ...deps,
      afterResultsStored: () => {
        throw new Error('worker died');
      },
    });

    // Act: two failures, the second one's worker dying; then a success moves the cell.
    await runner.run(job(t0));
    await expect(dying.run(job(t0 + 60_000))).rejects.toThrow('worker died');
    expect(await getCellResults(api.table, cell.id, '2026-01-01T00:01:00.000Z')).toBeDefined();
    down.clear();
    const later = await runner.run(job(t0 + 120_000));
    // The message of the dead worker's slot, redelivered after the later slot.
    const redelivered = await runner.run(job(t0 + 60_000));

    // Assess: the second failure took the check down, then the success up; each once.
    if (later.status === 'gone' || redelivered.status === 'gone') throw new Error('the cell is there');
    expect(
      later.transitions.filter((t) => t.kind === 'check').map((t) => [t.from_state, t.to_state]),
    ).toEqual([
      ['unknown', 'down'],
      ['down', 'up'],
    ]);
    expect(redelivered.transitions).toEqual([]);
    const read = await api.request('GET', `/v1/checks/${id}/transitions`, { key: tenant.key });
    expect(read.body.transitions.map((t: { to_state: string }) => t.to_state)).toEqual(['up', 'down']);
  });
});
