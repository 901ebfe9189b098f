import type { TenantStore } from '../auth/tenants.ts';
import {
  countersMarker,
  countersSeededOp,
  entityUnchangedOp,
  listEntityStates,
  readStatusCounters,
  seededEntryOp,
} from '../catalog/entities.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table, type WriteOp } from '../store/table.ts';
import { tally } from './status-board.ts';

/**
 * Seeds the status counters and the state index of tenants whose entities were written before
 * they existed (docs/data-model.md). Per tenant: read the counter item (its `version`), read every
 * entity, write each one's index entry on condition that the entity is unchanged, then put the
 * counts on condition that the counter's version is still the one read first. Any state change,
 * create or delete in between bumps that version, so the put fails and the tenant is counted
 * again: the counts are exact as of the put. Idempotent: a seeded tenant is skipped, and the
 * marker written at the end makes later runs read only it. Local runtimes run it at startup; in
 * the cloud the operator runs `npm run vigil -- status migrate` after deploying (docs/aws.md).
 */

const ATTEMPTS = 5;

/** One attempt at seeding a tenant: 'seeded', 'skipped' (already), or 'raced' (count again). */
async function seedTenant(table: Table, tenantId: string): Promise<'seeded' | 'skipped' | 'raced'> {
  const before = await readStatusCounters(table, tenantId);
  if (before?.seeded) return 'skipped';
  const entities = await listEntityStates(table, tenantId);
  try {
    // Two ops per entity: its index entry, and the check that the entity still has the state read.
    const perTransaction = MAX_TRANSACTION_OPS / 2;
    for (let i = 0; i < entities.length; i += perTransaction) {
      const ops: WriteOp[] = entities
        .slice(i, i + perTransaction)
        .flatMap((entity) => [
          seededEntryOp(tenantId, entity, entity.state),
          entityUnchangedOp(tenantId, entity),
        ]);
      await table.transact(ops);
    }
    await table.transact([countersSeededOp(tenantId, tally(entities.map((e) => e.state)), before)]);
    return 'seeded';
  } catch (err) {
    if (err instanceof ConditionFailedError) return 'raced';
    throw err;
  }
}

/** Seeds every tenant's status counters and index; returns how many tenants were seeded. */
export async function migrateStatusCounters(deps: {
  table: Table;
  tenants: Pick<TenantStore, 'listTenants'>;
  logger: Logger;
  clock: Clock;
}): Promise<number> {
  if (await countersMarker.done(deps.table)) return 0;
  let seeded = 0;
  for (const tenant of await deps.tenants.listTenants()) {
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await seedTenant(deps.table, tenant.id);
      if (outcome === 'seeded') seeded += 1;
      if (outcome !== 'raced') break;
      if (attempt === ATTEMPTS) {
        throw new Error(
          `the entities of tenant ${tenant.id} kept changing while being counted; run it again`,
        );
      }
    }
  }
  await deps.table.transact([countersMarker.op(seeded, isoTime(deps.clock.now()))]);
  if (seeded > 0) deps.logger.info('status counters seeded', { tenants: seeded });
  return seeded;
}
