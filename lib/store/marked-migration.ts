import { type Clock, isoTime } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table, WriteOp } from './table.ts';

/** What a marked migration needs: the table, a clock for the marker, a logger, the tenants to walk. */
export interface MigrationDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  tenants: { listTenants(): Promise<{ id: string; retention_days: number }[]> };
}

/**
 * The frame of a one-time data migration (lib/migrations.ts): skipped once its marker is stored;
 * else `perTenant` runs over every tenant and answers how many items it changed, then the marker
 * is written with the total (so later runs read only the marker), and a non-zero total is logged
 * as `message` with the count under `field`. Answers the total.
 */
export async function runMarkedMigration(
  deps: MigrationDeps,
  migration: {
    done: (table: Table) => Promise<boolean>;
    markerOp: (changed: number, completedAt: string) => WriteOp;
    perTenant: (tenant: { id: string; retention_days: number }) => Promise<number>;
    message: string;
    field: string;
  },
): Promise<number> {
  if (await migration.done(deps.table)) return 0;
  let changed = 0;
  for (const tenant of await deps.tenants.listTenants()) changed += await migration.perTenant(tenant);
  await deps.table.transact([migration.markerOp(changed, isoTime(deps.clock.now()))]);
  if (changed > 0) deps.logger.info(migration.message, { [migration.field]: changed });
  return changed;
}
