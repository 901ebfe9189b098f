import { tenantPk } from '../auth/tenancy-keys.ts';
import { parseItem, queryAll } from '../store/items.ts';
import type { Item, Table } from '../store/table.ts';
import { CHECK_PREFIX, checkGsi1, checkKeys, duePk, dueSk } from './check-keys.ts';
import { type CheckRecord, checkSchema } from './records.ts';

/** The stored item of a check: gsi1 = its entity's checks; gsi2 = the due index while it is scheduled. */
export function checkItem(check: CheckRecord, shard: number): Item {
  return {
    ...checkKeys.check(check.tenant_id, check.id),
    entity: 'check',
    ...checkGsi1(check.entity_id, check.id),
    ...(check.next_run_at ? { gsi2pk: duePk(shard), gsi2sk: dueSk(check.next_run_at, check.id) } : {}),
    ...check,
  };
}

/** The due-index attributes to set (or remove) when a check's next run changes. */
export function dueIndexUpdate(
  checkId: string,
  nextRunAt: string | null,
  shard: number,
): { set: Record<string, unknown>; remove: string[] } {
  return nextRunAt
    ? { set: { next_run_at: nextRunAt, gsi2pk: duePk(shard), gsi2sk: dueSk(nextRunAt, checkId) }, remove: [] }
    : { set: { next_run_at: null }, remove: ['gsi2pk', 'gsi2sk'] };
}

/** Reads of check records. */
export function createCheckStore(table: Table) {
  return {
    async get(tenantId: string, checkId: string): Promise<CheckRecord | undefined> {
      if (!/^chk_[0-9A-Z]{26}$/.test(checkId)) return undefined;
      const item = await table.get(checkKeys.check(tenantId, checkId), { consistent: true });
      return item ? parseItem(checkSchema, item) : undefined;
    },

    async list(tenantId: string): Promise<CheckRecord[]> {
      const items = await queryAll((cursor) =>
        table.query({
          pk: tenantPk(tenantId),
          sk: { op: 'beginsWith', prefix: CHECK_PREFIX },
          cursor,
          consistent: true,
        }),
      );
      return items.map((item) => parseItem(checkSchema, item));
    },
  };
}

export type CheckStore = ReturnType<typeof createCheckStore>;
