import type { CheckDefinitionRecord } from '../../check-types/check-record.ts';
import type { CheckState } from '../../domain/states.ts';
import type { Table } from '../../store/table.ts';
import { cellMemberStates } from '../cells/cell-view.ts';
import { parseStates, statesById } from '../items/check-state-items.ts';

/**
 * The state of each of these checks as the API shows it, by id: a pull check in a cell runs in its
 * cell (its state item stays as it joined, unknown), the others in their state items. A check
 * whose state item is gone (deleted meanwhile) is left out.
 */
export async function shownCheckStates(
  table: Table,
  tenantId: string,
  checks: readonly Pick<CheckDefinitionRecord, 'id' | 'cell'>[],
): Promise<Map<string, CheckState>> {
  const inCells = checks.flatMap((c) => (c.cell ? [{ id: c.id, cell_id: c.cell.cell_id }] : []));
  const own = checks.filter((c) => !c.cell).map((c) => c.id);
  const [items, members] = await Promise.all([
    own.length > 0 ? statesById(table, tenantId, own) : [],
    cellMemberStates(table, inCells),
  ]);
  return new Map<string, CheckState>([
    ...parseStates(items).map((s) => [s.check_id, s.state] as const),
    ...members,
  ]);
}
