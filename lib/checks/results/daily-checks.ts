import type { Table } from '../../store/table.ts';
import { checkDefinitionsById, entityCheckIds } from '../check-items.ts';
import { parseStates, statesById } from '../items/check-state-items.ts';
import type { DailyCheck } from './day-rollups.ts';

/** Checks an entity may have at most (the per-entity limit is far below it). */
const MAX_CHECKS_PER_ENTITY = 1000;

/** An entity's checks as their daily rollups are read (definition and state joined). */
export async function entityDailyChecks(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<DailyCheck[]> {
  const { ids } = await entityCheckIds(table, tenantId, entityId, MAX_CHECKS_PER_ENTITY);
  return dailyChecksById(table, tenantId, ids);
}

/**
 * Checks by id as their daily rollups are read (checkDailyRollups): where their results are, the
 * check's own items, its cell's and those of the cells it left; ids of checks that do not exist are
 * left out.
 */
async function dailyChecksById(
  table: Table,
  tenantId: string,
  ids: readonly string[],
): Promise<DailyCheck[]> {
  if (ids.length === 0) return [];
  const [definitions, stateItems] = await Promise.all([
    checkDefinitionsById(table, tenantId, ids),
    statesById(table, tenantId, ids),
  ]);
  const states = new Map(parseStates(stateItems).map((s) => [s.check_id, s]));
  return definitions.map((d) => ({
    id: d.id,
    created_at: d.created_at,
    current_rollup: states.get(d.id)?.current_rollup,
    cell: d.cell,
    interval_seconds: d.interval_seconds,
    former_cells: d.former_cells,
  }));
}
