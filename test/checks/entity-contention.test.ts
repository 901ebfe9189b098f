import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';
import { newCheck, newEntity, quietPushCheck, quietTcpCheck } from './check-fixtures.ts';

/**
 * When a shared dependency fails (or a new entity's checks report for the first time), many checks
 * of one entity change state at once. Each such result also updates the entity (optimistic on its
 * version): recorded in one process, they queue for the entity instead of racing for its version,
 * so every result is one transaction and none is retried. That is the per-check recorder of push
 * checks; pull checks of one cell move together in one slot (test/checks/cell-runner.test.ts).
 */
interface Move {
  kind: string;
  entity_id: string;
  from_state: string;
  to_state: string;
}

describe.each(runtimes)('results changing one entity at once ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  const CHECKS = 20; // the default check_limit_per_entity

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Initech');
  });
  afterAll(async () => {
    await api.close();
  });

  const checksOfNewEntity = async () => {
    const entityId = await newEntity(api, { key: tenant.key });
    const ids: string[] = [];
    for (let i = 0; i < CHECKS; i += 1) {
      ids.push(await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }), tenant.key));
    }
    return { entityId, ids };
  };

  /** Records one result per check, all at once; returns the outcomes and the transactions it took. */
  const recordAll = async (ids: string[], success: boolean, atMs: number) => {
    const transact = vi.spyOn(api.table, 'transact');
    try {
      const outcomes = await Promise.all(
        ids.map((checkId) =>
          api.app.recorder.record({
            tenantId: tenant.tenantId,
            checkId,
            success,
            status_code: 0,
            latency_ms: 5,
            error_message: success ? '' : 'connection refused',
            checkedAtMs: atMs,
          }),
        ),
      );
      // Only the result transactions count: the notification flow writes its own meanwhile.
      const recording = transact.mock.calls.filter(([ops]) =>
        ops.some((op) => op.type === 'put' && op.item.entity === 'result'),
      );
      return { statuses: outcomes.map((o) => o.status), transactions: recording.length };
    } finally {
      transact.mockRestore();
    }
  };

  const entityBoard = async (entityId: string) => {
    const res = await api.request('GET', '/v1/status', { key: tenant.key });
    expect(res.status, res.text).toBe(200);
    return (res.body.entities as { id: string; state: string }[]).find((e) => e.id === entityId);
  };

  it('records the first results of all its checks with one transaction each', async () => {
    const { entityId, ids } = await checksOfNewEntity();
    const { statuses, transactions } = await recordAll(ids, true, Date.now() - 60_000);
    expect(statuses).toEqual(ids.map(() => 'recorded'));
    expect(transactions).toBe(CHECKS);
    expect(await entityBoard(entityId)).toMatchObject({ state: 'up' });
  });

  it('records a mass failure with one transaction each, and the entity ends down with one transition per move', async () => {
    const { entityId, ids } = await checksOfNewEntity();
    const startMs = Date.now() - 60_000;
    await recordAll(ids, true, startMs);
    const { statuses, transactions } = await recordAll(ids, false, startMs + 1000);
    expect(statuses).toEqual(ids.map(() => 'recorded'));
    expect(transactions).toBe(CHECKS);
    expect(await entityBoard(entityId)).toMatchObject({ state: 'down' });
    for (const id of ids) {
      const check = await api.request('GET', `/v1/checks/${id}`, { key: tenant.key });
      expect(check.body).toMatchObject({ state: 'down', consecutive_failures: 1 });
    }
    // The entity went unknown -> up -> down (the first failing check takes it down: the worst check
    // wins, issue 35), one entity transition per move.
    const feed = await api.request('GET', '/v1/status/transitions', { key: tenant.key });
    const transitions: Move[] = feed.body.transitions;
    const moves = transitions
      .filter((t) => t.kind === 'entity' && t.entity_id === entityId)
      .map((t) => `${t.from_state}->${t.to_state}`)
      .sort();
    expect(moves).toEqual(['unknown->up', 'up->down']);
  });

  it("records a mass failure of one entity's pull checks in their cell as one slot: one state transaction, one entity transition per move", async () => {
    const entityId = await newEntity(api, { key: tenant.key });
    const ids: string[] = [];
    for (let i = 0; i < CHECKS; i += 1) {
      ids.push(await newCheck(api, quietTcpCheck(entityId, { failure_threshold: 1 }), tenant.key));
    }
    const startMs = Date.now() - 60_000;
    const slot = async (success: boolean, slotMs: number) => {
      const transact = vi.spyOn(api.table, 'transact');
      try {
        const outcome = await runCellSlot(api, {
          slotMs,
          tenantId: tenant.tenantId,
          answers: Object.fromEntries(ids.map((id) => [id, success])),
        });
        const writes = (entity: string) =>
          transact.mock.calls.filter(([ops]) =>
            ops.some((op) => op.type === 'put' && op.item.entity === entity),
          ).length;
        return { outcome, results: writes('cell_results'), states: writes('cell_state') };
      } finally {
        transact.mockRestore();
      }
    };
    const up = await slot(true, startMs);
    expect(up).toMatchObject({ results: 1, states: 1 });
    expect(up.outcome).toMatchObject({ status: 'recorded', results: CHECKS });
    expect(await entityBoard(entityId)).toMatchObject({ state: 'up' });
    const down = await slot(false, startMs + 1000);
    expect(down).toMatchObject({ results: 1, states: 1 });
    expect(await entityBoard(entityId)).toMatchObject({ state: 'down' });
    for (const id of ids) {
      const check = await api.request('GET', `/v1/checks/${id}`, { key: tenant.key });
      expect(check.body).toMatchObject({ state: 'down', consecutive_failures: 1 });
    }
    // One slot moves every check at once: the entity goes unknown -> up -> down, one transition each.
    const feed = await api.request('GET', '/v1/status/transitions', { key: tenant.key });
    const moves = (feed.body.transitions as Move[])
      .filter((t) => t.kind === 'entity' && t.entity_id === entityId)
      .map((t) => `${t.from_state}->${t.to_state}`)
      .sort();
    expect(moves).toEqual(['unknown->up', 'up->down']);
  });
});
