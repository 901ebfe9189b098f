import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FORMER_CELLS, withFormerCell } from '../../lib/checks/cells/cell-moves.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';
import {
  newCheck,
  newEntity,
  quietTcpCheck,
  recordSlot,
  soloTcpCheck,
  uniqueSlug,
} from './check-fixtures.ts';

/**
 * A check's results stay listed after it leaves a cell (disabled, moved to another interval): its
 * definition keeps the cells it left, and its results list and sparkline read them too, newest
 * first under one cursor, whatever the page size.
 */

const MINUTE = 60_000;
const DAY_MS = 86_400_000;

describe('the former cells kept on a definition', () => {
  const left = (cellId: string, until: number) => ({
    cell_id: cellId,
    shard: 0,
    interval_seconds: 60,
    until: isoTime(until),
  });

  it('puts the cell left last first and drops cells left longer ago than the retention', () => {
    const nowMs = Date.parse('2026-03-01T00:00:00.000Z');
    const kept = withFormerCell(
      [left('cel_b', nowMs - 2 * DAY_MS), left('cel_c', nowMs - 9 * DAY_MS)],
      left('cel_a', nowMs),
      { nowMs, retentionDays: 7 },
    );
    expect(kept.map((f) => f.cell_id)).toEqual(['cel_a', 'cel_b']);
  });

  it(`keeps at most ${MAX_FORMER_CELLS} cells, the newest`, () => {
    const nowMs = Date.parse('2026-03-01T00:00:00.000Z');
    const former = Array.from({ length: MAX_FORMER_CELLS }, (_, i) =>
      left(`cel_${i}`, nowMs - (i + 1) * MINUTE),
    );
    const kept = withFormerCell(former, left('cel_new', nowMs), { nowMs, retentionDays: 30 });
    expect(kept).toHaveLength(MAX_FORMER_CELLS);
    expect(kept[0]?.cell_id).toBe('cel_new');
    expect(kept.at(-1)?.cell_id).toBe(`cel_${MAX_FORMER_CELLS - 2}`);
  });
});

describe.each(runtimes)('results of a check that left its cell ($runtime runtime)', ({ start }) => {
  // A clock of the API's own, moved past each check's slots before it leaves its cell.
  const clock = createFakeClock(Math.floor(Date.now() / MINUTE) * MINUTE - 60 * MINUTE);
  let api: ApiHarness;
  let entityId: string;

  beforeAll(async () => {
    api = await start({ clock });
    entityId = await newEntity(api);
  });
  afterAll(async () => {
    await api.close();
  });

  const withCursor = (path: string, cursor: string) => `${path}&cursor=${encodeURIComponent(cursor)}`;

  /** Every result of the check, page by page at `limit` per page (newest first): checked_at and success. */
  async function allResults(checkId: string, limit: number) {
    const seen: { checked_at: string; success: boolean }[] = [];
    const path = `/v1/checks/${checkId}/results?limit=${limit}`;
    let cursor: string | null = null;
    for (let page = 0; page < 20; page += 1) {
      const res = await api.request('GET', cursor === null ? path : withCursor(path, cursor), {
        key: api.adminKey,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.results.length).toBeLessThanOrEqual(limit);
      seen.push(
        ...res.body.results.map((r: { checked_at: string; success: boolean }) => ({
          checked_at: r.checked_at,
          success: r.success,
        })),
      );
      cursor = res.body.next_cursor;
      if (cursor === null) return seen;
    }
    throw new Error('the results list did not end');
  }

  /** Records one slot per answer, a minute apart from `fromMs`, then moves the clock past them. */
  async function slots(checkId: string, fromMs: number, answers: boolean[]) {
    for (const [i, success] of answers.entries()) {
      await recordSlot(api, checkId, { success, checkedAtMs: fromMs + i * MINUTE });
    }
    clock.set(fromMs + answers.length * MINUTE);
  }

  const update = async (checkId: string, body: Record<string, unknown>) => {
    const res = await api.request('PUT', `/v1/checks/${checkId}`, { key: api.adminKey, body });
    expect(res.status, res.text).toBe(200);
  };

  /** The expected list: the slots' times newest first with their outcomes. */
  const expected = (...runs: [number, boolean[]][]) =>
    runs
      .flatMap(([fromMs, answers]) =>
        answers.map((success, i) => ({ checked_at: isoTime(fromMs + i * MINUTE), success })),
      )
      .reverse();

  it('lists the results of a disabled check, whatever the page size', async () => {
    const id = await newCheck(api, soloTcpCheck(entityId));
    const t0 = clock.now();
    await slots(id, t0, [true, false, true]);
    await update(id, { enabled: false });

    const definition = await getCheckDefinition(api.table, api.tenantId, id, { consistent: true });
    expect(definition?.cell ?? null).toBeNull();
    expect(definition?.former_cells).toEqual([expect.objectContaining({ until: isoTime(clock.now()) })]);
    const want = expected([t0, [true, false, true]]);
    expect(await allResults(id, 50)).toEqual(want);
    expect(await allResults(id, 1)).toEqual(want);
    expect(await allResults(id, 2)).toEqual(want);
  });

  it('lists the results of both cells, newest first, when the interval moves the check', async () => {
    const body = soloTcpCheck(entityId);
    const id = await newCheck(api, body);
    const before = await getCheckDefinition(api.table, api.tenantId, id, { consistent: true });
    const t0 = clock.now();
    await slots(id, t0, [true, false]);
    // Another interval of its own: the check moves to a new cell, alone there too.
    await update(id, { interval_seconds: soloTcpCheck(entityId).interval_seconds });
    const after = await getCheckDefinition(api.table, api.tenantId, id, { consistent: true });
    expect(after?.cell?.cell_id).toEqual(expect.any(String));
    expect(after?.cell?.cell_id).not.toBe(before?.cell?.cell_id);
    expect(after?.former_cells?.map((f) => f.cell_id)).toEqual([before?.cell?.cell_id]);
    const t1 = clock.now() + MINUTE;
    await slots(id, t1, [false, true, true]);

    const want = expected([t0, [true, false]], [t1, [false, true, true]]);
    for (const limit of [50, 1, 2, 3]) expect(await allResults(id, limit)).toEqual(want);
  });

  it('lists the old and the new cell results in order after a disable and an enable', async () => {
    const id = await newCheck(api, soloTcpCheck(entityId));
    const t0 = clock.now();
    await slots(id, t0, [false, true]);
    await update(id, { enabled: false });
    clock.advance(5 * MINUTE);
    await update(id, { enabled: true });
    const t1 = clock.now() + MINUTE;
    await slots(id, t1, [true, false]);
    await update(id, { enabled: false });
    const t2 = clock.now() + MINUTE;
    await update(id, { enabled: true });
    await slots(id, t2, [true]);

    // Back in the cell it left (it has room): that cell's slots are listed once, span by span.
    const definition = await getCheckDefinition(api.table, api.tenantId, id, { consistent: true });
    expect(definition?.former_cells).toHaveLength(2);
    const cells = new Set(definition?.former_cells?.map((f) => f.cell_id));
    expect(cells).toEqual(new Set([definition?.cell?.cell_id]));
    const want = expected([t0, [false, true]], [t1, [true, false]], [t2, [true]]);
    for (const limit of [50, 1, 2, 3, 4]) expect(await allResults(id, limit)).toEqual(want);
  });

  it('refuses a tampered cursor and a cursor of another check', async () => {
    const id = await newCheck(api, soloTcpCheck(entityId));
    await slots(id, clock.now(), [true, true]);
    await update(id, { enabled: false });
    const other = await newCheck(api, soloTcpCheck(entityId));
    await slots(other, clock.now(), [true, true]);

    const path = `/v1/checks/${id}/results?limit=1`;
    const first = await api.request('GET', path, { key: api.adminKey });
    const cursor: string = first.body.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const raw = Buffer.from(cursor, 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    for (const bad of [raw.toString('base64url'), cursor]) {
      const target = bad === cursor ? `/v1/checks/${other}/results?limit=1` : path;
      const res = await api.request('GET', withCursor(target, bad), { key: api.adminKey });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'invalid cursor' });
    }
  });

  it("shows the former cell's results in the sparkline", async () => {
    const id = await newCheck(api, soloTcpCheck(entityId));
    const t0 = clock.now();
    await slots(id, t0, [true, false, true]);
    await update(id, { enabled: false });

    // Aligned buckets (read per 5-minute bucket) and unaligned ones (read from the results).
    for (const buckets of [12, 7]) {
      const res = await api.request('GET', `/v1/checks/${id}/sparkline?hours=1&buckets=${buckets}`, {
        key: api.adminKey,
      });
      expect(res.status, res.text).toBe(200);
      const shown: { total: number; failures: number }[] = res.body.buckets;
      expect(shown.reduce((sum, b) => sum + b.total, 0)).toBe(3);
      expect(shown.reduce((sum, b) => sum + b.failures, 0)).toBe(1);
    }
  });

  it("shows the former cell's rolled-up buckets in the sparkline of a 1-minute check", async () => {
    // A tenant of its own: its 1-minute cell holds this check alone.
    const tenant = await api.createTenant(uniqueSlug('Former'));
    const entity = await newEntity(api, { key: tenant.key });
    const id = await newCheck(api, quietTcpCheck(entity, { interval_seconds: 60 }), tenant.key);
    // Eight slots over two 5-minute buckets: the second bucket's first slot rolls up the first.
    const t0 = Math.floor(clock.now() / (5 * MINUTE)) * 5 * MINUTE + 5 * MINUTE;
    const answers = [true, false, true, true, true, false, true, true];
    for (const [i, success] of answers.entries()) {
      await runCellSlot(api, {
        slotMs: t0 + i * MINUTE,
        answers: { [id]: success },
        tenantId: tenant.tenantId,
      });
    }
    clock.set(t0 + answers.length * MINUTE);
    const res = await api.request('PUT', `/v1/checks/${id}`, { key: tenant.key, body: { enabled: false } });
    expect(res.status, res.text).toBe(200);
    // Later, with the check out of cells, the buckets are still there.
    clock.advance(15 * MINUTE);

    const shown = await api.request('GET', `/v1/checks/${id}/sparkline?hours=1&buckets=12`, {
      key: tenant.key,
    });
    expect(shown.status, shown.text).toBe(200);
    const buckets: { start: string; total: number; failures: number }[] = shown.body.buckets;
    expect(buckets.filter((b) => b.total > 0)).toEqual([
      expect.objectContaining({ start: isoTime(t0), total: 5, failures: 1 }),
      expect.objectContaining({ start: isoTime(t0 + 5 * MINUTE), total: 3, failures: 1 }),
    ]);
  });
});
