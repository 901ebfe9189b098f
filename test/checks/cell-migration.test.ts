import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getCellState } from '../../lib/checks/cells/cell-result-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { dueCheckPages } from '../../lib/checks/items/due-pages.ts';
import { migrateChecksToCells } from '../../lib/checks/migration/cell-migration.ts';
import { runProbeJob } from '../../lib/checks/probe-job.ts';
import { createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Prober } from '../../lib/probes/types.ts';
import {
  forgetCellsMigration,
  loadPreviousLayout,
  moveCheckStates,
  type PreviousLayout,
  previousLayout,
} from '../fixtures/previous-layout/load.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * Pull checks stored by the previous layout (test/fixtures/previous-layout, written by main at
 * 03825ca) move into cells: the API shows the same state, failures and last result, their old
 * results stay listed after the cell's, and they then run as cell members.
 */
describe.each(runtimes)('the move of pull checks into cells ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let dump: PreviousLayout;
  let before: Record<string, { state: string; consecutive_failures: number; last_result_at: string | null }>;
  const DUE_SHARDS = 4;

  // biome-ignore lint/suspicious/noExplicitAny: API answers are inspected freely
  const get = async (path: string): Promise<any> => {
    const res = await api.request('GET', path, { key: dump.api_key });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const migrate = () =>
    migrateChecksToCells({
      table: api.table,
      tenants: api.app.tenants,
      logger: silentLogger,
      clock: systemClock,
      dueShards: DUE_SHARDS,
    });
  /** Every page of a check's results at `limit` per page, newest first. */
  const allResults = async (checkId: string, limit: number) => {
    const seen: { id: string; success: boolean; checked_at: string }[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page += 1) {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const body = await get(`/v1/checks/${checkId}/results?limit=${limit}${query}`);
      seen.push(...body.results);
      cursor = body.next_cursor;
      if (!cursor) return seen;
    }
    throw new Error('the results did not end');
  };

  beforeAll(async () => {
    // No scheduler: it would claim the loaded checks' due slots before they move.
    api = await start({ scheduler: false });
    dump = previousLayout();
    // A local runtime migrated its (empty) store at start: this store is one the layout left.
    await forgetCellsMigration(api.table);
    await loadPreviousLayout(api.table, dump);
    await moveCheckStates(api.table, api.app.tenants);
    before = {};
    for (const id of Object.values(dump.checks)) {
      const { state, consecutive_failures, last_result_at } = await get(`/v1/checks/${id}`);
      before[id] = { state, consecutive_failures, last_result_at };
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  it('moves the enabled pull checks into cells once, keeping what the API shows', async () => {
    expect(before[dump.checks.down]).toMatchObject({ state: 'down', consecutive_failures: 3 });
    expect(await migrate()).toBe(3);
    // The marker: a second run reads only it.
    expect(await migrate()).toBe(0);
    // Without the marker, a run finds nothing left to move and changes nothing.
    const definitions = async () =>
      Promise.all(Object.values(dump.checks).map((id) => getCheckDefinition(api.table, dump.tenant_id, id)));
    const moved = await definitions();
    await forgetCellsMigration(api.table);
    expect(await migrate()).toBe(0);
    expect(await definitions()).toEqual(moved);

    for (const id of Object.values(dump.checks)) {
      const shown = await get(`/v1/checks/${id}`);
      expect(shown, id).toMatchObject(before[id] ?? {});
      expect(shown.next_run_at === null, id).toBe(id === dump.checks.disabled);
    }
    const [healthy, down, flaky, disabled, push] = moved;
    for (const definition of [healthy, down, flaky]) expect(definition?.cell?.cell_id).toMatch(/^cel_/);
    expect(disabled?.cell ?? null).toBeNull();
    expect(push?.cell ?? null).toBeNull();

    // The running states are in the cells' state (an up check with no failures has no entry).
    const cellIds = new Set([healthy, down, flaky].map((d) => d?.cell?.cell_id ?? ''));
    const members = {};
    for (const cellId of cellIds) Object.assign(members, (await getCellState(api.table, cellId))?.members);
    expect(members).toEqual({
      [dump.checks.down]: { state: 'down', consecutive_failures: 3, slot: '' },
      [dump.checks.flaky]: { state: 'up', consecutive_failures: 1, slot: '' },
    });

    // Only the push check is left in the due index.
    const due: string[] = [];
    for (let shard = 0; shard < DUE_SHARDS; shard += 1) {
      for await (const page of dueCheckPages(api.table, { shard, before: '9999', pageSize: 100 })) {
        due.push(...page.checks.filter((c) => c.tenant_id === dump.tenant_id).map((c) => c.check_id));
      }
    }
    expect(due).toEqual([dump.checks.push]);

    // The results recorded before the move are still listed, newest first.
    const results = await allResults(dump.checks.down, 50);
    expect(results.map((r) => r.success)).toEqual([false, false, false, true]);
  });

  it('skips a per-check probe job queued before the move without recording anything', async () => {
    const prober = vi.fn<Prober>();
    const outcome = await runProbeJob(
      { tenant_id: dump.tenant_id, check_id: dump.checks.healthy, kind: 'probe', slot_ms: Date.now() },
      { ...api.app.jobRunner, prober, logger: silentLogger },
    );
    expect(outcome).toEqual({ status: 'skipped', reason: 'the check runs in a cell' });
    expect(prober).not.toHaveBeenCalled();
    expect(await allResults(dump.checks.healthy, 50)).toHaveLength(4);
  });

  it('runs the moved checks as cell members: the down one recovers, its new result listed before the old', async () => {
    const definition = await getCheckDefinition(api.table, dump.tenant_id, dump.checks.down);
    const cell = definition?.cell;
    if (!cell) throw new Error('the down check moved into a cell');
    const healthyProber: Prober = async () => ({
      startedMs: Date.now(),
      outcome: { success: true, status_code: 0, latency_ms: 4, error_message: '' },
    });
    const slotMs = Math.floor(Date.now() / 60_000) * 60_000;
    const ran = await createCellRunner({
      table: api.table,
      prober: healthyProber,
      tenants: api.app.tenants,
      clock: systemClock,
    }).run({
      kind: 'cell',
      tenant_id: dump.tenant_id,
      cell_id: cell.cell_id,
      shard: cell.shard,
      slot_ms: slotMs,
    });
    if (ran.status === 'gone') throw new Error('the cell is there');
    const moves = ran.transitions
      .filter((t) => t.kind === 'check')
      .map((t) => [t.check_id, t.from_state, t.to_state]);
    expect(moves).toContainEqual([dump.checks.down, 'down', 'up']);
    // The healthy check was up with no failures: its slot moves nothing.
    expect(moves.map(([id]) => id)).not.toContain(dump.checks.healthy);

    const down = await get(`/v1/checks/${dump.checks.down}`);
    expect(down).toMatchObject({ state: 'up', consecutive_failures: 0 });
    expect(Date.parse(down.last_result_at)).toBeGreaterThanOrEqual(slotMs);
    const transitions = await get(`/v1/checks/${dump.checks.down}/transitions?limit=1`);
    expect(transitions.transitions[0]).toMatchObject({ from_state: 'down', to_state: 'up' });

    // One list over the cell's slot and the per-check results before it, whatever the page size.
    const all = await allResults(dump.checks.down, 50);
    expect(all.map((r) => r.success)).toEqual([true, false, false, false, true]);
    expect(Date.parse(all[0]?.checked_at ?? '')).toBeGreaterThanOrEqual(slotMs);
    expect(await allResults(dump.checks.down, 1)).toEqual(all);
    expect(await allResults(dump.checks.down, 2)).toEqual(all);
  });

  it('leaves the push check working and the disabled check untouched', async () => {
    const pushed = await api.request('POST', `/v1/checks/${dump.checks.push}/results`, {
      key: dump.api_key,
      body: { success: false, latency_ms: 3, error_message: 'boom' },
    });
    expect(pushed.status, pushed.text).toBe(201);
    expect(await get(`/v1/checks/${dump.checks.push}`)).toMatchObject({
      state: 'down',
      consecutive_failures: 1,
    });
    expect(await allResults(dump.checks.push, 50)).toHaveLength(2);

    const disabled = await get(`/v1/checks/${dump.checks.disabled}`);
    expect(disabled).toMatchObject({ enabled: false, state: 'unknown', next_run_at: null });
    expect((await getCheckDefinition(api.table, dump.tenant_id, dump.checks.disabled))?.version).toBe(1);
  });
});
