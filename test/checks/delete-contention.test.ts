import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WriteOp } from '../../lib/store/table.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietPushCheck, record } from './check-fixtures.ts';

/**
 * Issue 75, a user's write must not lose to Vigil's own work (point 7's model, for deletes and
 * disables): deleting or disabling a check whose state is known takes it out of its entity's
 * aggregate, a write that was held on the entity's version, which every result that moves the
 * entity bumps, so under an alert storm on the entity it answered 409 "the check changed
 * concurrently too often". Here a state move lands between every such write's read and its commit,
 * and every delete and disable succeeds; the entity ends with the aggregate of the checks left.
 */

/** A check write that takes a check out of its entity's aggregate (a delete or a disable), or back in (an enable). */
const movesMembership = (ops: WriteOp[]) =>
  ops.some(
    (op) =>
      op.type === 'update' &&
      ((op.entries?.check_states?.remove?.length ?? 0) > 0 || op.set?.enabled === true),
  );

describe.each(bothRuntimes)(
  'deleting, disabling and enabling checks while the entity moves ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;
    let tenant: { tenantId: string; key: string };
    const LEAVING = 6;

    beforeAll(async () => {
      api = await start();
      tenant = await api.createTenant('Initech');
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      await api.close();
    });

    /** The entity as the status board shows it. */
    const boardEntity = async (entityId: string) => {
      const board = await api.request('GET', '/v1/status', { key: tenant.key });
      expect(board.status, board.text).toBe(200);
      type Shown = { id: string; state: string; checks: { id: string; state: string }[] };
      return (board.body.entities as Shown[]).find((e) => e.id === entityId);
    };
    const entityState = async (entityId: string) => (await boardEntity(entityId))?.state;

    it('deletes and disables down checks at once, and enables them again, while state moves land between each try and its write', async () => {
      const entityId = await newEntity(api, { key: tenant.key });
      const mover = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }), tenant.key);
      const startMs = Date.now() - 600_000;
      let seq = 0;
      // A result of `checkId` (the system's own state move through the recorder), recorded.
      const result = (checkId: string, success: boolean) => {
        seq += 1;
        return record(api, checkId, {
          success,
          checkedAtMs: startMs + seq * 1000,
          tenantId: tenant.tenantId,
        });
      };
      // Checks whose state is known (down): the entity is down while they are in it.
      const leaving: string[] = [];
      for (let i = 0; i < LEAVING; i += 1) {
        const id = await newCheck(
          api,
          quietPushCheck(entityId, { name: `leaving ${i}`, failure_threshold: 1 }),
          tenant.key,
        );
        await result(id, false);
        leaving.push(id);
      }
      await result(mover, true);

      let flips = 0;
      const transact = api.table.transact.bind(api.table);
      vi.spyOn(api.table, 'transact').mockImplementation(async (ops) => {
        if (movesMembership(ops)) {
          // The mover goes down or up again, and writes the entity, after this try read it.
          flips += 1;
          await result(mover, flips % 2 === 0);
        }
        return transact(ops);
      });

      const answers = await Promise.all(
        leaving.map((id, i) =>
          i % 2 === 0
            ? api.request('DELETE', `/v1/checks/${id}`, { key: tenant.key })
            : api.request('PUT', `/v1/checks/${id}`, { key: tenant.key, body: { enabled: false } }),
        ),
      );
      for (const [i, res] of answers.entries()) expect(res.status, res.text).toBe(i % 2 === 0 ? 204 : 200);
      expect(flips).toBeGreaterThanOrEqual(LEAVING);
      // The entity is the mover's state alone (the checks that left were down: a stale aggregate says down).
      expect(await entityState(entityId)).toBe(flips % 2 === 1 ? 'down' : 'up');
      // The disabled ones enabled again (their state known: down), while the mover moves.
      const disabled = leaving.filter((_, i) => i % 2 === 1);
      const before = flips;
      const enabled = await Promise.all(
        disabled.map((id) =>
          api.request('PUT', `/v1/checks/${id}`, { key: tenant.key, body: { enabled: true } }),
        ),
      );
      vi.mocked(api.table.transact).mockRestore();
      for (const res of enabled) expect(res.status, res.text).toBe(200);
      expect(flips - before).toBeGreaterThanOrEqual(disabled.length);

      // The entity is the aggregate of the mover and the checks enabled again (down): down, with
      // each check's state as it is.
      const moverState = flips % 2 === 1 ? 'down' : 'up';
      const entity = await boardEntity(entityId);
      expect(entity?.checks.map((c) => [c.id, c.state]).sort()).toEqual(
        [[mover, moverState], ...disabled.map((id) => [id, 'down'])].sort(),
      );
      expect(entity?.state).toBe('down');
      const listed = await api.request('GET', `/v1/checks?entity_id=${entityId}`, { key: tenant.key });
      expect(listed.status, listed.text).toBe(200);
      expect((listed.body as { id: string }[]).map((c) => c.id).sort()).toEqual([mover, ...disabled].sort());
    });
  },
);
