import { describe, expect, it } from 'vitest';
import { CELL_SIZE, getCell } from '../../lib/checks/cells/cell-items.ts';
import { createCellMembership } from '../../lib/checks/cells/cell-membership.ts';
import { getCellState } from '../../lib/checks/cells/cell-result-items.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';

describe('cell membership', () => {
  it('fills a cell of the tenant and interval up to its size, then starts another; members enter unknown and leave', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const membership = createCellMembership({ table, dueShards: 4, nowMs: () => Date.now() });
    const places = [];
    for (let i = 0; i < CELL_SIZE + 1; i += 1) {
      const id = `chk_${String(i).padStart(26, '0')}`;
      const joined = await membership.join({ id, tenant_id: 'tnt_a', interval_seconds: 60, version: 1 });
      await table.transact(joined.ops);
      places.push(joined.place);
    }
    const cells = new Set(places.map((p) => p?.cell_id));
    expect(cells.size).toBe(2);
    const first = places[0];
    if (!first) throw new Error('joined');
    const cell = await getCell(table, first.shard, first.cell_id);
    expect(Object.keys(cell?.members ?? {})).toHaveLength(CELL_SIZE);
    expect((await getCellState(table, first.cell_id))?.members.chk_00000000000000000000000000).toEqual({
      state: 'unknown',
      consecutive_failures: 0,
      slot: '',
    });
    // Another interval gets a cell of its own.
    const other = await membership.join({
      id: 'chk_x',
      tenant_id: 'tnt_a',
      interval_seconds: 300,
      version: 1,
    });
    expect(cells.has(other.place?.cell_id)).toBe(false);

    await table.transact(await membership.leave(first, 'chk_00000000000000000000000000'));
    expect(Object.keys((await getCell(table, first.shard, first.cell_id))?.members ?? {})).toHaveLength(
      CELL_SIZE - 1,
    );
    expect((await getCellState(table, first.cell_id))?.members).not.toHaveProperty(
      'chk_00000000000000000000000000',
    );
    await table.close();
  });
});
