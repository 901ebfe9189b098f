import { z } from 'zod';
import type { TenantStore } from '../auth/tenant-store.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { unchanged } from '../store/conditions.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import {
  type Condition,
  ConditionFailedError,
  MAX_TRANSACTION_OPS,
  type Table,
  type WriteOp,
} from '../store/table.ts';
import { tally } from './status-board.ts';
import { STATES, STATUS_COUNTERS_MIGRATED, stateEntryItem, statusKeys, statusTypes } from './status-index.ts';

/**
 * Seeds the status counters and the state index of tenants whose entities were written before
 * they existed (docs/data-model.md). Per tenant: read the counter item (its `version`), read every
 * entity, write each one's index entry on condition that the entity is unchanged, then put the
 * counts on condition that the counter's version is still the one read first. Any state change,
 * create or delete in between bumps that version, so the put fails and the tenant is counted
 * again: the counts are exact as of the put. Idempotent: a seeded tenant is skipped, and the
 * marker written at the end makes later runs read only it. Local runtimes run it at startup; in
 * the cloud the operator runs `npm run vigil -- status migrate` after deploying (README).
 */

const ATTEMPTS = 5;

const entitySchema = z.object({ id: z.string(), state: z.enum(STATES), version: z.number().int() });
const counterSchema = z.object({ version: z.number().int().optional(), seeded: z.boolean().optional() });

/** One attempt at seeding a tenant: 'seeded', 'skipped' (already), or 'raced' (count again). */
async function seedTenant(table: Table, tenantId: string): Promise<'seeded' | 'skipped' | 'raced'> {
  const key = statusKeys.counters(tenantId);
  const before = await table.get(key, { consistent: true });
  const counter = counterSchema.parse(before ?? {});
  if (counter.seeded) return 'skipped';
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: 'ENT#' },
        cursor,
        consistent: true,
      }),
    Number.MAX_SAFE_INTEGER,
  );
  const entities = items.map((item) => ({ sk: item.sk, ...parseItem(entitySchema, item) }));
  try {
    // Two ops per entity: its index entry, and the check that the entity still has the state read.
    const perTransaction = MAX_TRANSACTION_OPS / 2;
    for (let i = 0; i < entities.length; i += perTransaction) {
      const ops: WriteOp[] = entities.slice(i, i + perTransaction).flatMap((entity): WriteOp[] => [
        { type: 'put', item: stateEntryItem(tenantId, entity.state, entity.sk, entity.id) },
        {
          type: 'conditionCheck',
          key: { pk: tenantPk(tenantId), sk: entity.sk },
          condition: unchanged('version', entity.version),
        },
      ]);
      await table.transact(ops);
    }
    const held: Condition = before ? unchanged('version', counter.version ?? 0) : { kind: 'itemNotExists' };
    await table.transact([
      {
        type: 'put',
        item: {
          ...key,
          ...stamp(statusTypes.counters),
          ...tally(entities.map((e) => e.state)),
          version: (counter.version ?? 0) + 1,
          seeded: true,
        },
        condition: held,
      },
    ]);
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
  if (await deps.table.get(STATUS_COUNTERS_MIGRATED, { consistent: true })) return 0;
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
  await deps.table.transact([
    {
      type: 'put',
      item: {
        ...STATUS_COUNTERS_MIGRATED,
        ...stamp(statusTypes.migration),
        tenants_seeded: seeded,
        completed_at: isoTime(deps.clock.now()),
      },
    },
  ]);
  if (seeded > 0) deps.logger.info('status counters seeded', { tenants: seeded });
  return seeded;
}
