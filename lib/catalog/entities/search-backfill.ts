import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table } from '../../store/table.ts';
import { type EntityPointer, listEntityPointers, pointerNamedOps, readEntityItems } from './entity-items.ts';
import { searchKeysMarker } from './search-backfill-items.ts';

/**
 * Gives the id pointers written before search_entities' indexes their name and index keys
 * (docs/data-model.md, Catalog): per tenant, read the pointers without a name, batch-read their
 * entity items, and write each pointer's name and index entries held on what was read (the
 * pointer still without a name, the entity still of that id and name), in transactions of 50
 * pointers. A rename, delete or create racing it fails the transaction, and the tenant is read
 * again. Idempotent: a named pointer is left alone, and the marker written at the end makes later
 * runs read only it. Local runtimes run it at startup; in the cloud the operator runs
 * `npm run vigil -- data migrate` after deploying (docs/aws.md "Upgrading a deployment").
 */

const ATTEMPTS = 5;
/** Two ops per pointer: its update and the check on its entity. */
const PER_TRANSACTION = MAX_TRANSACTION_OPS / 2;

/** One pass over a tenant: how many pointers it named, and whether a write lost a race. */
async function nameTenant(table: Table, tenantId: string): Promise<{ named: number; raced: boolean }> {
  const unnamed = (await listEntityPointers(table, tenantId)).filter((p) => p.name === undefined);
  const names = new Map<string, string>();
  for (const item of await readEntityItems(table, tenantId, unnamed))
    names.set(String(item.id), String(item.name));
  // A pointer whose entity item is gone (or another entity's now) is left to the delete that removes it.
  const pending = unnamed.filter((p) => names.has(p.id));
  let named = 0;
  let raced = false;
  for (let i = 0; i < pending.length; i += PER_TRANSACTION) {
    const chunk: EntityPointer[] = pending.slice(i, i + PER_TRANSACTION);
    try {
      await table.transact(chunk.flatMap((p) => pointerNamedOps(tenantId, p, names.get(p.id) ?? '')));
      named += chunk.length;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      raced = true;
    }
  }
  return { named, raced };
}

/** Backfills every tenant's pointers; returns how many pointers were named. */
export async function backfillSearchKeys(deps: {
  table: Table;
  tenants: { listTenants(): Promise<readonly { id: string }[]> };
  logger: Logger;
  clock: Clock;
}): Promise<number> {
  if (await searchKeysMarker.done(deps.table)) return 0;
  let named = 0;
  for (const tenant of await deps.tenants.listTenants()) {
    for (let attempt = 1; ; attempt += 1) {
      const pass = await nameTenant(deps.table, tenant.id);
      named += pass.named;
      if (!pass.raced) break;
      if (attempt === ATTEMPTS) {
        throw new Error(`the entities of tenant ${tenant.id} kept changing while being named; run it again`);
      }
    }
  }
  await deps.table.transact([searchKeysMarker.op(named, isoTime(deps.clock.now()))]);
  if (named > 0) deps.logger.info('entity search keys backfilled', { pointers: named });
  return named;
}
