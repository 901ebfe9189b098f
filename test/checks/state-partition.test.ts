import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimOp, readCheckState, stateMovedOps } from '../../lib/checks/items/check-state-items.ts';
import { dueCheckPages } from '../../lib/checks/items/due-pages.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { queryAll, transactIf } from '../../lib/store/items.ts';
import {
  ConditionFailedError,
  type Item,
  type Key,
  type NewItem,
  type Table,
} from '../../lib/store/table.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';
import { storedKeys } from '../support/stored-keys.ts';

/**
 * A check's state item lives in its check's partition (`CHECK#<chk_id>`, `STATE`; issue 78 point 5):
 * a tenant's jobs pinging at the top of the hour write one partition key each, none of them the
 * tenant's. The state-partition migration moves the states earlier releases kept next to their
 * definitions, each with its due-index entry in one transaction (docs/data-model.md "Checks").
 */

const MARKER: Key = { pk: 'MIGRATION', sk: 'check-state-partition' };

/** Every item of the tenant's partition, strongly consistent. */
const tenantPartition = (table: Table, tenantId: string) =>
  queryAll((cursor) => table.query({ pk: `TENANT#${tenantId}`, cursor, consistent: true }));

/** The items of a due-index entry. */
async function dueEntry(table: Table, item: Item): Promise<Item[]> {
  const page = await table.query({
    index: 'gsi2',
    pk: String(item.gsi2pk),
    sk: { op: '=', value: String(item.gsi2sk) },
  });
  return page.items;
}

/**
 * The check's state put back where the previous release kept it, as it stored it: its due entry
 * (if any) under its shard's one key, `DUE#<shard>`, not a sub-key of it.
 */
async function toTenantPartition(api: ApiHarness, checkId: string): Promise<NewItem> {
  const state = await api.table.get(storedKeys.checkState(api.tenantId, checkId), { consistent: true });
  if (!state) throw new Error('state item missing');
  const due = state.gsi2pk ? { gsi2pk: String(state.gsi2pk).replace(/#\d+$/, '') } : {};
  const old: NewItem = {
    ...state,
    ...due,
    ...storedKeys.tenantCheckState(api.tenantId, checkId),
    schema_version: 1,
  };
  await api.table.transact([
    { type: 'put', item: old },
    { type: 'delete', key: storedKeys.checkState(api.tenantId, checkId) },
    { type: 'delete', key: MARKER },
  ]);
  return old;
}

describe.each(bothRuntimes)(
  'check state and results counters off the tenant partition ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;
    const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
    const kit = pingKit(() => api);
    const stateOf = (checkId: string) =>
      api.table.get(storedKeys.checkState(api.tenantId, checkId), { consistent: true });
    const shownCheck = async (checkId: string) => {
      const res = await api.request('GET', `/v1/checks/${checkId}`, { key: api.adminKey });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    /** `vigil_check_results_total{status="success"}` of the tenant. */
    const results = async () => {
      const text = (await api.request('GET', '/v1/metrics', { key: api.adminKey })).text;
      return Number(/^vigil_check_results_total\{status="success"\} (\d+)$/m.exec(text)?.[1]);
    };
    const migrate = async () => JSON.parse(await api.operator(['data', 'migrate'])).check_states_moved;

    beforeAll(async () => {
      api = await start({ clock, scheduler: false });
    });
    afterAll(async () => {
      await api.close();
    });

    it("stores a check's state in its check's partition, the tenant's holding only its definition", async () => {
      const { checkId } = await kit.pushCheck();
      const state = await stateOf(checkId);
      expect(state).toMatchObject({ entity: 'check_state', check_id: checkId, tenant_id: api.tenantId });
      const mine = (await tenantPartition(api.table, api.tenantId)).filter((item) =>
        item.sk.includes(checkId),
      );
      expect(mine.map((item) => [item.entity, item.sk])).toEqual([['check', `CHECK#${checkId}`]]);
      // The list still joins each definition with its state.
      const res = await api.request('GET', '/v1/checks?limit=100', { key: api.adminKey });
      expect(res.status, res.text).toBe(200);
      expect(res.body.find((c: { id: string }) => c.id === checkId)).toMatchObject({ state: 'unknown' });
    });

    it("a ping's start and success, its bucket's close among them, write nothing to the tenant's partition", async () => {
      const { checkId, token } = await kit.pushCheck();
      // Up since its first ping (which changed its entity's aggregate): the hour's pings change no state.
      expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
      await api.drainChanges();
      clock.advance(3_600_000);
      const changed = async (write: () => Promise<void>) => {
        const before = await tenantPartition(api.table, api.tenantId);
        await write();
        await api.drainChanges();
        const after = await tenantPartition(api.table, api.tenantId);
        const seen = new Set(before.map((item) => JSON.stringify(item)));
        return after.filter((item) => !seen.has(JSON.stringify(item))).map((item) => item.entity);
      };
      // The state is in the check's partition; the tenant's results counters, which the success
      // adds its closed 5-minute bucket to (lib/metrics), in partitions of their own.
      const before = await results();
      const written = await changed(async () => {
        expect((await api.request('GET', `/ping/${token}/start`)).status).toBe(200);
        clock.advance(5_000);
        expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
      });
      expect(written).toEqual([]);
      expect(await results()).toBe(before + 1);
      const state = await stateOf(checkId);
      expect(state).toMatchObject({ state: 'up', gsi2pk: expect.stringMatching(/^DUE#\d+#\d\d$/) });
    });

    it('sums the results counters an earlier release kept in the tenant partition with the current ones', async () => {
      const before = await results();
      await api.table.transact([
        {
          type: 'put',
          item: {
            pk: `TENANT#${api.tenantId}`,
            sk: 'METRIC_COUNTERS#3',
            entity: 'metric_counters',
            schema_version: 1,
            results_success: 40,
            results_failure: 2,
          },
        },
      ]);
      expect(await results()).toBe(before + 40);
    });

    it("reads no state of another tenant's check", async () => {
      const { checkId } = await kit.pushCheck();
      const other = await api.createTenant('other');
      expect(await readCheckState(api.table, other.tenantId, checkId)).toBeUndefined();
      expect(await api.app.checks.get(other.tenantId, checkId)).toBeUndefined();
      expect((await api.request('GET', `/v1/checks/${checkId}`, { key: other.key })).status).toBe(404);
    });

    it("moves a previous release's states with their due entries, once, and the generator claims each once", async () => {
      const { checkId, token } = await kit.pushCheck();
      expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
      const shown = await shownCheck(checkId);
      expect(shown).toMatchObject({ id: checkId, state: 'up' });
      const disabled = await kit.pushCheck({ enabled: false });
      const old = await toTenantPartition(api, checkId);
      await toTenantPartition(api, disabled.checkId);
      expect(old.gsi2pk).toMatch(/^DUE#\d+$/);
      // Before the move, the due index holds the old item, and this release's claim of it fails.
      expect((await dueEntry(api.table, old)).map((item) => item.pk)).toEqual([`TENANT#${api.tenantId}`]);
      const claim = claimOp({
        tenantId: api.tenantId,
        checkId,
        claimedRunAt: String(old.next_run_at),
        due: { nextRunAt: '2026-03-02T05:00:00.000Z', shard: 0 },
      });
      await expect(api.table.transact([claim])).rejects.toBeInstanceOf(ConditionFailedError);
      expect(await stateOf(checkId)).toBeUndefined();

      expect(await migrate()).toBe(2);

      const moved = await stateOf(checkId);
      const { pk: _pk, sk: _sk, ...kept } = old;
      expect(moved).toEqual({ ...kept, ...storedKeys.checkState(api.tenantId, checkId) });
      expect(await api.table.get(storedKeys.tenantCheckState(api.tenantId, checkId))).toBeUndefined();
      expect((await dueEntry(api.table, old)).map((item) => item.pk)).toEqual([`CHECK#${checkId}`]);
      const movedDisabled = await api.table.get(storedKeys.checkState(api.tenantId, disabled.checkId), {
        consistent: true,
      });
      expect(movedDisabled).toMatchObject({ entity: 'check_state', next_run_at: null });
      expect(movedDisabled).not.toHaveProperty('gsi2pk');
      expect(await shownCheck(checkId)).toEqual(shown);
      // One claim of the slot wins; a second (an overlapping generator) fails.
      await api.table.transact([claim]);
      await expect(api.table.transact([claim])).rejects.toBeInstanceOf(ConditionFailedError);

      // Done once: the marker makes a second run read nothing else.
      expect(await migrate()).toBe(0);
    });

    it('run again after a copy without its delete, leaves the copy and removes the old item', async () => {
      const { checkId, token } = await kit.pushCheck();
      const old = await toTenantPartition(api, checkId);
      // The copy exists and moved on (a ping since); the old item is still there.
      await api.table.transact([
        { type: 'put', item: { ...old, ...storedKeys.checkState(api.tenantId, checkId) } },
      ]);
      expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
      const copy = await stateOf(checkId);
      expect(copy).toMatchObject({ state: 'up' });

      expect(await migrate()).toBe(1);

      expect(await api.table.get(storedKeys.tenantCheckState(api.tenantId, checkId))).toBeUndefined();
      expect(await stateOf(checkId)).toEqual(copy);
      expect(await dueEntry(api.table, old)).toEqual([]);
    });

    it('does not move a state written since it was read (the move is read again)', async () => {
      const { checkId } = await kit.pushCheck();
      const old = await toTenantPartition(api, checkId);
      await api.table.transact([
        { type: 'update', key: storedKeys.tenantCheckState(api.tenantId, checkId), add: { version: 1 } },
      ]);
      expect(await transactIf(api.table, stateMovedOps(old, false))).toBe(false);
      expect(await stateOf(checkId)).toBeUndefined();
      expect(await migrate()).toBe(1);
      expect(await stateOf(checkId)).toMatchObject({
        version: Number(old.version) + 1,
      });
    });

    it("reads, pings and claims a previous release's state before the migration has run, moving each", async () => {
      // Read: the check is shown as it was, and its state now sits in its check's partition.
      const read = await kit.pushCheck();
      expect((await api.request('GET', `/ping/${read.token}`)).status).toBe(200);
      const shown = await shownCheck(read.checkId);
      await toTenantPartition(api, read.checkId);
      expect(await shownCheck(read.checkId)).toEqual(shown);
      expect(await api.table.get(storedKeys.tenantCheckState(api.tenantId, read.checkId))).toBeUndefined();
      expect(await stateOf(read.checkId)).toMatchObject({ state: 'up' });

      // Pinged: the ping is recorded on the moved state.
      const pinged = await kit.pushCheck();
      await toTenantPartition(api, pinged.checkId);
      expect((await api.request('GET', `/ping/${pinged.token}/fail`)).status).toBe(200);
      expect(await stateOf(pinged.checkId)).toMatchObject({ state: 'down', consecutive_failures: 1 });
      expect(await api.table.get(storedKeys.tenantCheckState(api.tenantId, pinged.checkId))).toBeUndefined();

      // Claimed: the generator's page moves the state with its due entry, and the claim of its slot holds.
      const due = await kit.pushCheck();
      expect((await api.request('GET', `/ping/${due.token}`)).status).toBe(200);
      const old = await toTenantPartition(api, due.checkId);
      expect(old.gsi2pk).toMatch(/^DUE#\d+$/);
      const found: string[] = [];
      const shard = Number(String(old.gsi2pk).slice('DUE#'.length));
      for await (const page of dueCheckPages(api.table, { shard, before: `${old.gsi2sk}~`, pageSize: 500 })) {
        found.push(...page.checks.map((check) => check.check_id));
      }
      expect(found).toContain(due.checkId);
      expect((await dueEntry(api.table, old)).map((item) => item.pk)).toEqual([`CHECK#${due.checkId}`]);
      const claim = claimOp({
        tenantId: api.tenantId,
        checkId: due.checkId,
        claimedRunAt: String(old.next_run_at),
        due: { nextRunAt: '2026-03-02T09:00:00.000Z', shard: 0 },
      });
      await api.table.transact([claim]);
      await expect(api.table.transact([claim])).rejects.toBeInstanceOf(ConditionFailedError);

      // Nothing is left for the migration to move.
      expect(await migrate()).toBe(0);
    });
  },
);
