import type { TenantStore } from '../../auth/tenants.ts';
import { storedCheckConfigSchema } from '../../check-types/check-config.ts';
import { checkRecordFieldsSchema, splitCheck } from '../../check-types/check-record.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import { parseItem } from '../../store/items.ts';
import { ConditionFailedError, type Item, type Table } from '../../store/table.ts';
import { checkLayoutMarker, definitionReplacedOp, isDefinition, tenantCheckItems } from '../check-items.ts';
import { isState, stateMigratedOp } from '../items/check-state-items.ts';

/**
 * Moves checks stored in the first layout (one item with the definition, the running state and
 * the due-index keys) to the current one: the definition item and a state item next to it
 * (docs/data-model.md). Idempotent: a check that has its state item is left alone, and each
 * check moves in one transaction, conditional on the item it read, so a write racing it wins and
 * the check is read again. When every tenant is done it writes a marker, and later runs read only
 * that. Local runtimes run it at startup; in the cloud, the operator runs
 * `npm run vigil -- checks migrate` after deploying (docs/aws.md "Upgrading a deployment").
 */

/** A first-layout check item: it carries the state (and has no `state_version`). */
const firstLayoutSchema = checkRecordFieldsSchema.omit({ state_version: true }).and(storedCheckConfigSchema);

const ATTEMPTS = 3;

/** The first-layout check items of a tenant (definitions that carry a state and have no state item). */
function firstLayoutItems(items: Item[]): Item[] {
  const withState = new Set(items.filter(isState).map((item) => item.check_id));
  return items.filter((item) => isDefinition(item) && 'state' in item && !withState.has(item.id));
}

/** Splits one first-layout item in one transaction; false when the item changed since it was read. */
async function splitOne(table: Table, item: Item): Promise<boolean> {
  const stored = parseItem(firstLayoutSchema, item);
  const { definition, state } = splitCheck({ ...stored, state_version: 1 });
  // The due-index entry moves as it is (its shard was chosen with the deployment's shard count).
  const due =
    typeof item.gsi2pk === 'string' && typeof item.gsi2sk === 'string'
      ? { pk: item.gsi2pk, sk: item.gsi2sk }
      : null;
  try {
    await table.transact([
      // Replaces the whole item: the state attributes and the due-index keys leave the definition.
      definitionReplacedOp(definition, stored.version),
      stateMigratedOp(state, due),
    ]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailedError) return false;
    throw err;
  }
}

/** Migrates every tenant's first-layout checks; returns how many moved. */
export async function migrateCheckItems(deps: {
  table: Table;
  tenants: Pick<TenantStore, 'listTenants'>;
  logger: Logger;
  clock: Clock;
}): Promise<number> {
  if (await checkLayoutMarker.done(deps.table)) return 0;
  let moved = 0;
  for (const tenant of await deps.tenants.listTenants()) {
    let pending = firstLayoutItems(await tenantCheckItems(deps.table, tenant.id));
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      const raced: Item[] = [];
      for (const item of pending) {
        if (await splitOne(deps.table, item)) moved += 1;
        else raced.push(item);
      }
      if (raced.length === 0) break;
      if (attempt === ATTEMPTS) {
        throw new Error(
          `${raced.length} checks of tenant ${tenant.id} kept changing while being migrated; run it again`,
        );
      }
      // Read again: those that another writer moved, or deleted, are no longer pending.
      const ids = new Set(raced.map((item) => item.id));
      pending = firstLayoutItems(await tenantCheckItems(deps.table, tenant.id)).filter((item) =>
        ids.has(item.id),
      );
    }
  }
  await deps.table.transact([checkLayoutMarker.op(moved, isoTime(deps.clock.now()))]);
  if (moved > 0) deps.logger.info('checks moved to the definition and state layout', { checks: moved });
  return moved;
}
