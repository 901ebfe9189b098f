import { join } from 'node:path';
import { definitionUpdatedOp, getCheckDefinition } from '../../lib/checks/check-items.ts';
import { stateOfDefinitionOp } from '../../lib/checks/items/check-state-items.ts';
import { createLocationDecider, type LocationDecider } from '../../lib/checks/results/location-decision.ts';
import { composeProbing } from '../../lib/locations/compose-probing.ts';
import type { Clock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import type { ConsoleRig } from './support.ts';

/**
 * A console rig's check made located, and the location decider that reports its slots: the
 * runtime's SQLite file opened beside it (as the operator CLI opens it), the check stored as
 * enabled with its locations and quorum in its definition and state, yet unscheduled: a located
 * check enabled through the API would also be probed by the runtime on its own schedule (real
 * time), and its slots would change what the test shows.
 */
export async function locateForConsole(
  rig: ConsoleRig,
  checkId: string,
  located: { locations: string[]; quorum: number; clock: Clock },
): Promise<{ table: SqliteTable; tenantId: string; decider: LocationDecider }> {
  const table = createSqliteTable({ db: openSqliteDatabase(join(rig.dataDir, 'vigil.db')) });
  const { clock } = located;
  const { tenants, checks, recorder } = composeProbing({
    table,
    clock,
    logger: silentLogger,
    config: { dueShards: loadConfig('local', {}).dueShards, allowPrivateTargets: true },
  });
  const tenantId = (await tenants.listTenants())[0]?.id ?? '';
  const check = await getCheckDefinition(table, tenantId, checkId);
  if (!check) throw new Error('no such check');
  await table.transact([
    definitionUpdatedOp(
      tenantId,
      checkId,
      { enabled: true, locations: located.locations, quorum: located.quorum },
      check.version,
    ),
    stateOfDefinitionOp({
      tenantId,
      checkId,
      copies: {
        execution_mode: 'pull',
        interval_seconds: check.interval_seconds,
        definition_version: check.version + 1,
      },
    }),
  ]);
  const decider = createLocationDecider({ table, recorder, checks, tenants, clock, logger: silentLogger });
  return { table, tenantId, decider };
}
