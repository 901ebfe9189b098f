import { transactIf } from '../../store/items.ts';
import { type MigrationDeps, migrationMarker, runMarkedMigration } from '../../store/marked-migration.ts';
import type { Item, Table } from '../../store/table.ts';
import { tenantCheckItems } from '../check-items.ts';
import { isTenantPartitionState, stateMovedOps, statesById } from '../items/check-state-items.ts';

/**
 * Moves check state items from their tenant's partition (`TENANT#<tnt>`, `CHECK#<chk_id>#STATE`,
 * where releases before issue 78 point 5 kept them) to their check's (`CHECK#<chk_id>`, `STATE`):
 * a tenant's jobs pinging at the top of the hour then write one partition key each, not all the
 * tenant's one (docs/data-model.md "Checks").
 *
 * Each check moves in one transaction: the copy, with the due-index entry it had, and the delete of
 * the item read, held on its version and next run. So the due index holds one entry per check at
 * every moment, and the generator cannot run a check twice: before the move, this release's claim
 * (on the new key) finds no item and fails; after it, the old item and its entry are gone. A write
 * or a claim landing meanwhile fails the move, and the tenant is read again. Run twice, or again
 * after an interruption: a moved check has no old item left; one whose copy exists (an earlier
 * move) only loses its old item. The local runtime runs it at start, before the scheduler and the
 * API; the cloud's `data migrate` after deploying (docs/aws.md): until then, a state stored before
 * is moved the same way when it is first read or its due entry paged (check-state-items.ts movedOnRead).
 */

const statePartitionMarker = migrationMarker('check-state-partition', 'states_moved');

/** Rounds of reading a tenant again after moves that raced a write. */
const ATTEMPTS = 3;
/** Moves (transactions) in flight at once. */
const IN_FLIGHT = 16;

/** The tenant's state items still in its partition. */
async function tenantPartitionStates(table: Table, tenantId: string): Promise<Item[]> {
  return (await tenantCheckItems(table, tenantId)).filter(isTenantPartitionState);
}

/** Moves one tenant's state items; answers how many it moved. */
async function moveTenantStates(table: Table, tenantId: string): Promise<number> {
  let moved = 0;
  let pending = await tenantPartitionStates(table, tenantId);
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > ATTEMPTS) {
      throw new Error(
        `${pending.length} check states of tenant ${tenantId} kept changing while being moved; run it again`,
      );
    }
    const ids = pending.map((item) => String(item.check_id));
    const copied = new Set(
      (await statesById(table, tenantId, ids, { consistent: true })).map((item) => item.check_id),
    );
    for (let i = 0; i < pending.length; i += IN_FLIGHT) {
      const done = await Promise.all(
        pending
          .slice(i, i + IN_FLIGHT)
          .map((item) => transactIf(table, stateMovedOps(item, copied.has(item.check_id)))),
      );
      moved += done.filter(Boolean).length;
    }
    pending = await tenantPartitionStates(table, tenantId);
  }
  return moved;
}

/** Moves every tenant's check states to their checks' partitions, once (a marker); answers how many moved. */
export function migrateStatePartitions(deps: MigrationDeps): Promise<number> {
  return runMarkedMigration(deps, {
    marker: statePartitionMarker,
    perTenant: (tenant) => moveTenantStates(deps.table, tenant.id),
    message: 'check states moved to their check partitions',
    field: 'states',
  });
}
