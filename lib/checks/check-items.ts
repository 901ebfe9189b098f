import { z } from 'zod';
import { batchGetAll, parseItem, queryAll } from '../store/items.ts';
import { checkPartition, tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';
import { CHECK_PREFIX, checkKeys, checkTypes, RESULT_PREFIX } from './check-keys.ts';
import {
  CHECK_TYPES,
  type CheckDefinitionRecord,
  type CheckType,
  checkDefinitionSchema,
  type ResultRecord,
  resultSchema,
} from './records.ts';

/**
 * What other features read and write of the checks engine's items, by name (issue 26: one owner per
 * stored item). Notify, push, status and actions use these instead of the checks' keys.
 */

/** The `entity` of transition items (check and entity transitions), for change-feed filters. */
export const TRANSITION_ENTITY = checkTypes.transition.entity;

/** A transaction op that holds only while the check exists (its definition item). */
export function checkExistsOp(tenantId: string, checkId: string): WriteOp {
  return {
    type: 'conditionCheck',
    key: checkKeys.check(tenantId, checkId),
    condition: { kind: 'itemExists' },
  };
}

/** The check's definition, or undefined when there is no such check of the tenant. */
export async function getCheckDefinition(
  table: Table,
  tenantId: string,
  checkId: string,
  options: { consistent?: boolean } = {},
): Promise<CheckDefinitionRecord | undefined> {
  const item = await table.get(checkKeys.check(tenantId, checkId), options);
  return item ? parseItem(checkDefinitionSchema, item) : undefined;
}

/** The check's latest results, newest first (at most `limit`; eventually consistent). */
export async function latestResults(table: Table, checkId: string, limit: number): Promise<ResultRecord[]> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: RESULT_PREFIX },
    direction: 'desc',
    limit,
  });
  return page.items.flatMap((item) => {
    const result = resultSchema.safeParse(item);
    return result.success ? [result.data] : [];
  });
}

const checkTypeSchema = z.object({ id: z.string(), check_type: z.enum(CHECK_TYPES) });

/** check id -> type of the tenant's checks: every one (the tenant's check items), or those of `checkIds` (by key). */
export async function checkTypesOf(
  table: Table,
  tenantId: string,
  checkIds?: readonly string[],
): Promise<Map<string, CheckType>> {
  const items =
    checkIds === undefined
      ? await queryAll((cursor) =>
          table.query({
            pk: tenantPk(tenantId),
            sk: { op: 'beginsWith', prefix: CHECK_PREFIX },
            cursor,
            consistent: true,
          }),
        )
      : await batchGetAll(
          table,
          [...new Set(checkIds)].map((id) => checkKeys.check(tenantId, id)),
        );
  // The tenant's CHECK# items are definitions and their state items; the type is on the first.
  const definitions = items.filter((item) => item.entity === checkTypes.check.entity);
  return new Map(
    definitions.map((item) => {
      const check = checkTypeSchema.parse(item);
      return [check.id, check.check_type] as const;
    }),
  );
}
