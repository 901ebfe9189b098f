import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietPushCheck, record } from './check-fixtures.ts';

/**
 * Deleting an entity deletes its checks later (the purge, on the change feed). In between, a
 * result that changes no state is recorded in the check's partition, which the purge deletes
 * after the check; one that would move the entity answers `gone` and never writes the entity back;
 * and the check listing leaves the check out at once.
 * The per-check recorder's behaviour: push checks keep it (pull checks' results are cell slots).
 */
describe.each(runtimes)(
  'results for a check whose entity was just deleted ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;

    beforeAll(async () => {
      api = await start();
    });
    afterAll(async () => {
      await api.close();
    });

    /** A check with one result recorded (up), and its entity deleted as the delete leaves it: item and id pointer. */
    const checkOfDeletedEntity = async () => {
      const entityId = await newEntity(api);
      const checkId = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }));
      await record(api, checkId, { success: true, checkedAtMs: Date.now() - 60_000 });
      const check = await api.app.checks.get(api.tenantId, checkId);
      if (!check) throw new Error('check not found');
      // The entity item as stored (docs/data-model.md, Catalog).
      const entityKey = {
        pk: `TENANT#${api.tenantId}`,
        sk: `ENT#${check.blueprint_slug}#${check.entity_slug}`,
      };
      expect(await api.table.get(entityKey, { consistent: true })).toBeDefined();
      const pointerKey = { pk: `TENANT#${api.tenantId}`, sk: `ENTID#${check.entity_id}` };
      expect(await api.table.get(pointerKey, { consistent: true })).toBeDefined();
      await api.table.transact([
        { type: 'delete', key: entityKey },
        { type: 'delete', key: pointerKey },
      ]);
      return { checkId, entityKey };
    };

    const result = (checkId: string, success: boolean) =>
      api.app.recorder.record({
        tenantId: api.tenantId,
        checkId,
        success,
        status_code: 0,
        latency_ms: 5,
        error_message: success ? '' : 'connection refused',
        checkedAtMs: Date.now() - 30_000,
      });

    it('records a result that changes no state, without writing the entity back', async () => {
      const { checkId, entityKey } = await checkOfDeletedEntity();
      const outcome = await result(checkId, true);
      expect(outcome.status).toBe('recorded');
      expect(await api.table.get(entityKey, { consistent: true })).toBeUndefined();
    });

    it('answers gone for a result that would move the entity, and writes nothing', async () => {
      const { checkId, entityKey } = await checkOfDeletedEntity();
      const before = await api.app.checks.get(api.tenantId, checkId);
      const outcome = await result(checkId, false);
      expect(outcome.status).toBe('gone');
      expect(await api.table.get(entityKey, { consistent: true })).toBeUndefined();
      const after = await api.app.checks.get(api.tenantId, checkId);
      expect(after?.state).toBe('up');
      expect(after?.state_version).toBe(before?.state_version);
    });

    it('leaves the check out of the listing until the purge deletes it', async () => {
      const kept = await newCheck(api, quietPushCheck(await newEntity(api)));
      const { checkId } = await checkOfDeletedEntity();
      const listed = await api.request('GET', '/v1/checks?limit=100', { key: api.adminKey });
      expect(listed.status).toBe(200);
      const ids = listed.body.map((c: { id: string }) => c.id);
      expect(ids).toContain(kept);
      expect(ids).not.toContain(checkId);
    });
  },
);
