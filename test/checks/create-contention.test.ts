import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WriteOp } from '../../lib/store/table.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietPushCheck } from './check-fixtures.ts';

/**
 * Issue 75, point 7: a user's write must not lose to Vigil's own work. Creating checks on an
 * entity whose checks are probing failed with 409 "the entity changed concurrently too often"
 * when results moved the entity between each try's read and write (its aggregate and the new
 * check's entry were one version-held write). Here a state move lands in exactly that window on
 * every try: each create's transaction is held back until a result of another check of the entity
 * has moved it, and the new checks' own first results land meanwhile. Every create succeeds, and
 * the entity ends with every check and the aggregate of their states.
 */

/** A check create's transaction: it puts the check's definition item. */
const createsACheck = (ops: WriteOp[]) => ops.some((op) => op.type === 'put' && op.item.entity === 'check');

describe.each(bothRuntimes)('creating checks while the entity moves ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  const CREATES = 12;

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Globex');
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await api.close();
  });

  it('creates every check at once while state moves land between each try and its write, and first results come in', async () => {
    const entityId = await newEntity(api, { key: tenant.key });
    const mover = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }), tenant.key);
    const startMs = Date.now() - 600_000;
    let seq = 0;
    // A result of `checkId` that moves it (the system's own state move through the recorder).
    const result = (checkId: string, success: boolean) => {
      seq += 1;
      return api.app.recorder.record({
        tenantId: tenant.tenantId,
        checkId,
        success,
        status_code: 0,
        latency_ms: 5,
        error_message: success ? '' : 'connection refused',
        checkedAtMs: startMs + seq * 1000,
      });
    };
    let flips = 0;
    const transact = api.table.transact.bind(api.table);
    vi.spyOn(api.table, 'transact').mockImplementation(async (ops) => {
      if (createsACheck(ops)) {
        // The mover goes down or up again, and writes the entity, after this try read it.
        flips += 1;
        const moved = await result(mover, flips % 2 === 0);
        expect(moved.status).toBe('recorded');
      }
      return transact(ops);
    });

    const created = await Promise.all(
      Array.from({ length: CREATES }, async (_, i) => {
        const res = await api.request('POST', '/v1/checks', {
          key: tenant.key,
          body: quietPushCheck(entityId, { name: `probe ${i}`, failure_threshold: 1 }),
        });
        expect(res.status, res.text).toBe(201);
        const id = res.body.id as string;
        // Its first probe at once: unknown -> up, another move of the entity beside the creates.
        expect((await result(id, true)).status).toBe('recorded');
        return id;
      }),
    );
    vi.mocked(api.table.transact).mockRestore();
    expect(new Set(created).size).toBe(CREATES);
    expect(flips).toBeGreaterThanOrEqual(CREATES);

    // The mover's last word: down after an odd number of flips, up after an even one.
    const moverState = flips % 2 === 1 ? 'down' : 'up';
    const board = await api.request('GET', '/v1/status', { key: tenant.key });
    expect(board.status, board.text).toBe(200);
    const entity = (
      board.body.entities as { id: string; state: string; checks: { id: string; state: string }[] }[]
    ).find((e) => e.id === entityId);
    expect(entity?.checks.map((c) => [c.id, c.state]).sort()).toEqual(
      [[mover, moverState], ...created.map((id) => [id, 'up'])].sort(),
    );
    expect(entity?.state).toBe(moverState);
    const listed = await api.request('GET', `/v1/checks?entity_id=${entityId}`, { key: tenant.key });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toHaveLength(CREATES + 1);
  });
});
