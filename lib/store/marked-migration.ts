import * as z from 'zod';
import { type Clock, isoTime } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { defineItem } from './item-definition.ts';
import { itemType } from './item-type.ts';
import type { Table, WriteOp } from './table.ts';

/** What a marked migration needs: the table, a clock for the marker, a logger, the tenants to walk. */
export interface MigrationDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  tenants: { listTenants(): Promise<{ id: string; retention_days: number }[]> };
}

/** The marker a one-time data migration stores once it has completed, so later runs read only it. */
export interface MigrationMarker {
  /** Whether the migration has completed (the marker exists; consistent). */
  done(table: Table): Promise<boolean>;
  /** The put of the marker, with how many items the migration changed and when it completed. */
  op(changed: number, completedAt: string): WriteOp;
}

/**
 * The marker of the migration `name` (a `migration` item: pk MIGRATION, sk `name`), its count under
 * `countField`. `early`: markers of the migration were stored before they carried their fields.
 */
export function migrationMarker(name: string, countField: string, early = false): MigrationMarker {
  const count = early ? z.number().int().optional() : z.number().int();
  const completedAt = early ? z.string().optional() : z.string();
  const marker = defineItem({
    type: itemType('migration'),
    schema: z.object({ [countField]: count, completed_at: completedAt }),
    key: (_: object) => ({ pk: 'MIGRATION', sk: name }),
    docKey: {},
  });
  return {
    done: async (table) => (await marker.get(table, {}, { consistent: true })) !== undefined,
    op: (changed, completedAt) => marker.put({ [countField]: changed, completed_at: completedAt }),
  };
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
    marker: MigrationMarker;
    perTenant: (tenant: { id: string; retention_days: number }) => Promise<number>;
    message: string;
    field: string;
  },
): Promise<number> {
  if (await migration.marker.done(deps.table)) return 0;
  let changed = 0;
  for (const tenant of await deps.tenants.listTenants()) changed += await migration.perTenant(tenant);
  await deps.table.transact([migration.marker.op(changed, isoTime(deps.clock.now()))]);
  if (changed > 0) deps.logger.info(migration.message, { [migration.field]: changed });
  return changed;
}
