import { shardOf } from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import {
  CELL_SIZE,
  type CellRecord,
  cellCreatedOp,
  cellMembersOp,
  cellsWithRoom,
  getCell,
} from './cell-items.ts';
import { type CellStateRecord, cellStateOp, getCellState } from './cell-result-items.ts';

/** Where a pull check runs: its cell and the cell's due shard. */
export interface CellPlace {
  cell_id: string;
  shard: number;
}

/** A member's entry in the cell's state (a member up with no failures has none). */
export type CellMemberEntry = CellStateRecord['members'][string];

/** How a check enters a cell's state unless told otherwise: unknown until its first slot. */
const UNKNOWN: CellMemberEntry = { state: 'unknown', consecutive_failures: 0, slot: '' };

/** The ops of one membership change and where the check runs after it. */
export interface MembershipOps {
  ops: WriteOp[];
  place: CellPlace | undefined;
}

/** The cell's state with its members changed, held on the version read. */
async function stateWith(
  table: Table,
  cell: CellRecord,
  change: (members: CellStateRecord['members']) => CellStateRecord['members'],
): Promise<WriteOp> {
  const state = await getCellState(table, cell.id);
  return cellStateOp(
    {
      cell_id: cell.id,
      tenant_id: cell.tenant_id,
      last_slot: state?.last_slot ?? '',
      members: change({ ...(state?.members ?? {}) }),
      version: (state?.version ?? 0) + 1,
    },
    state?.version,
  );
}

/** The join's try from which it picks a random cell with room, and from which it starts a new cell. */
const RANDOM_CELL_FROM = 4;
const NEW_CELL_FROM = 8;

/** How often a leave outside an API write (the entity purge) reads the cell again after losing a race. */
const LEAVE_ATTEMPTS = 5;

/** The ops that take `checkIds` out of a cell and its state, held on both versions (none if not members). */
async function leaveOps(table: Table, place: CellPlace, checkIds: readonly string[]): Promise<WriteOp[]> {
  const cell = await getCell(table, place.shard, place.cell_id);
  const leaving = new Set(checkIds.filter((id) => cell && id in cell.members));
  if (!cell || leaving.size === 0) return [];
  const kept = <V>(entries: Record<string, V>): Record<string, V> =>
    Object.fromEntries(Object.entries(entries).filter(([id]) => !leaving.has(id)));
  return [cellMembersOp(cell, kept(cell.members)), await stateWith(table, cell, kept)];
}

/**
 * Takes checks out of their cells on their own (the entity purge deletes checks without an API
 * write to ride on): one transaction per cell, read again when a slot or a join moved the cell
 * meanwhile. Idempotent: checks that are no longer members are skipped.
 */
export async function leaveCells(
  table: Table,
  members: readonly { place: CellPlace; checkId: string }[],
): Promise<void> {
  const byCell = new Map<string, { place: CellPlace; ids: string[] }>();
  for (const { place, checkId } of members) {
    const group = byCell.get(place.cell_id) ?? { place, ids: [] };
    group.ids.push(checkId);
    byCell.set(place.cell_id, group);
  }
  for (const { place, ids } of byCell.values()) {
    for (let attempt = 1; ; attempt += 1) {
      const ops = await leaveOps(table, place, ids);
      if (ops.length === 0) break;
      try {
        await table.transact(ops);
        break;
      } catch (error) {
        if (!(error instanceof ConditionFailedError) || attempt >= LEAVE_ATTEMPTS) throw error;
      }
    }
  }
}

/**
 * The cells side of check writes (issue 26's layout): a pull check that is enabled is a member of
 * one cell of its tenant and interval. Joining takes a cell with room (or starts one) and enters
 * the check in the cell's state as unknown; leaving takes it out of both; a definition change
 * records the member's new version, so workers re-read it. Each returns ops for the caller's
 * transaction, held on the cell's and its state's versions (a lost race is read again).
 */
export function createCellMembership(deps: { table: Table; dueShards: number; nowMs: () => number }) {
  const { table } = deps;

  return {
    /**
     * `attempt` counts the caller's tries (withRetries backs off between them): a join that lost a
     * race for a cell tries the same first cell with room again a few times, then a random one with
     * room, and from the ninth try starts a cell of its own. Checks created together so fill one
     * cell before spreading (every cell costs a queue message and a results item per slot), and a
     * burst of creates never fails for want of a cell. `entry` is the check's entry in the
     * cell's state (the migration carries a running state over; null: up with no failures).
     */
    async join(
      check: { id: string; tenant_id: string; interval_seconds: number; version: number },
      attempt = 0,
      entry: CellMemberEntry | null = UNKNOWN,
    ): Promise<MembershipOps> {
      const roomyCells =
        attempt >= NEW_CELL_FROM ? [] : await cellsWithRoom(table, check.tenant_id, check.interval_seconds);
      const roomy =
        attempt < RANDOM_CELL_FROM
          ? roomyCells[0]
          : roomyCells[Math.floor(Math.random() * roomyCells.length)];
      // The index is eventually consistent: read the cell itself before counting on its room.
      const cell = roomy ? await getCell(table, roomy.shard, roomy.id) : undefined;
      if (cell && Object.keys(cell.members).length < CELL_SIZE) {
        return {
          ops: [
            cellMembersOp(cell, { ...cell.members, [check.id]: check.version }),
            await stateWith(table, cell, (members) => (entry ? { ...members, [check.id]: entry } : members)),
          ],
          place: { cell_id: cell.id, shard: cell.shard },
        };
      }
      const now = deps.nowMs();
      const id = newId('cel', now);
      const created: CellRecord = {
        id,
        tenant_id: check.tenant_id,
        shard: shardOf(id, deps.dueShards),
        interval_seconds: check.interval_seconds,
        members: { [check.id]: check.version },
        version: 1,
        created_at: isoTime(now),
      };
      return {
        ops: [
          cellCreatedOp(created),
          cellStateOp(
            {
              cell_id: id,
              tenant_id: check.tenant_id,
              last_slot: '',
              members: entry ? { [check.id]: entry } : {},
              version: 1,
            },
            undefined,
          ),
        ],
        place: { cell_id: id, shard: created.shard },
      };
    },

    async leave(place: CellPlace, checkId: string): Promise<WriteOp[]> {
      return leaveOps(table, place, [checkId]);
    },

    async touch(place: CellPlace, checkId: string, version: number): Promise<WriteOp[]> {
      const cell = await getCell(table, place.shard, place.cell_id);
      if (!cell || !(checkId in cell.members)) return [];
      return [cellMembersOp(cell, { ...cell.members, [checkId]: version })];
    },
  };
}

export type CellMembership = ReturnType<typeof createCellMembership>;
