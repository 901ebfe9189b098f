import type { TenantStore } from '../../auth/tenants.ts';
import type { CheckRecord } from '../../check-types/check-record.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { cellsMarkerOp, cellsMigrated } from '../cells/cell-items.ts';
import { type CellMemberEntry, createCellMembership } from '../cells/cell-membership.ts';
import { inCell } from '../cells/cell-moves.ts';
import { definitionUpdatedOp, tenantCheckItems } from '../check-items.ts';
import { withStates } from '../definitions/check-store.ts';
import { stateRecordedOp } from '../items/check-state-items.ts';

/**
 * Moves enabled pull checks stored before cells (a state item in the due index, which the per-check
 * generator claims) into cells (docs/data-model.md "Cells"): each joins a cell of its tenant and
 * interval as a check created now would, its running state (state, consecutive failures) moves
 * into the cell's state, and its state item leaves the due index, keeping what the API shows
 * (last_result_at stays on it until the cell's first slot; next_run_at becomes the cell's phase).
 * One transaction per check, conditional on the definition's and the state's versions it read: an
 * API write or a result racing it wins, and the check is read again. Idempotent (a check with a
 * cell is left alone); when every tenant is done it writes a marker, and later runs read only
 * that. Disabled, push and located checks (lib/domain/states/quorum.ts) stay as they are.
 */

const ATTEMPTS = 3;

export interface CellMigrationDeps {
  table: Table;
  tenants: Pick<TenantStore, 'listTenants'>;
  logger: Logger;
  clock: Clock;
  /** The deployment's due shard count (config.dueShards): a new cell's shard comes from it. */
  dueShards: number;
}

/** Whether a check is an enabled pull check stored before cells (located checks never join one). */
const pending = (check: CheckRecord) => inCell(check) && !check.cell;

/** The check's entry in the cell's state: none when up with no failures (as the cell runner leaves it). */
function entryOf(check: CheckRecord): CellMemberEntry | null {
  if (check.state === 'up' && check.consecutive_failures === 0) return null;
  return { state: check.state, consecutive_failures: check.consecutive_failures, slot: '' };
}

/** The tenant's checks still to move, read strongly consistent (only `ids` when given). */
async function pendingChecks(table: Table, tenantId: string, ids?: Set<string>): Promise<CheckRecord[]> {
  const checks = (await withStates(table, tenantId, await tenantCheckItems(table, tenantId))).filter(pending);
  return ids ? checks.filter((check) => ids.has(check.id)) : checks;
}

/** Migrates every tenant's enabled pull checks into cells; returns how many moved. */
export async function migrateChecksToCells(deps: CellMigrationDeps): Promise<number> {
  const { table, clock } = deps;
  if (await cellsMigrated(table)) return 0;
  const cells = createCellMembership({ table, dueShards: deps.dueShards, nowMs: () => clock.now() });

  /** Moves one check in one transaction; false when something it read changed meanwhile. */
  const moveOne = async (check: CheckRecord, attempt: number): Promise<boolean> => {
    // The definition gains its cell (a new version, which the cell records for its workers); the
    // state item follows that version and leaves the due index (no next_run_at).
    const version = check.version + 1;
    const joined = await cells.join(
      { id: check.id, tenant_id: check.tenant_id, interval_seconds: check.interval_seconds, version },
      attempt,
      entryOf(check),
    );
    try {
      await table.transact([
        definitionUpdatedOp(check.tenant_id, check.id, { cell: joined.place ?? null }, check.version),
        ...joined.ops,
        stateRecordedOp({
          tenantId: check.tenant_id,
          checkId: check.id,
          set: { definition_version: version },
          version: check.state_version,
          due: { nextRunAt: null, shard: 0 },
        }),
      ]);
      return true;
    } catch (err) {
      if (err instanceof ConditionFailedError) return false;
      throw err;
    }
  };

  let moved = 0;
  for (const tenant of await deps.tenants.listTenants()) {
    let checks = await pendingChecks(table, tenant.id);
    for (let attempt = 1; checks.length > 0; attempt += 1) {
      const raced: string[] = [];
      for (const check of checks) {
        if (await moveOne(check, attempt - 1)) moved += 1;
        else raced.push(check.id);
      }
      if (raced.length === 0) break;
      if (attempt === ATTEMPTS) {
        throw new Error(
          `${raced.length} checks of tenant ${tenant.id} kept changing while moving into cells; run it again`,
        );
      }
      // Read again: those another writer moved, disabled or deleted are no longer pending.
      checks = await pendingChecks(table, tenant.id, new Set(raced));
    }
  }
  await table.transact([cellsMarkerOp(moved, isoTime(clock.now()))]);
  if (moved > 0) deps.logger.info('pull checks moved into cells', { checks: moved });
  return moved;
}
