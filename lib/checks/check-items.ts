import type { StateChangeEvent } from '../domain/state-change-event.ts';
import { parseItem } from '../store/items.ts';
import { checkPartition } from '../store/partitions.ts';
import type { Item, Table, WriteOp } from '../store/table.ts';
import { checkKeys, checkTypes, RESULT_PREFIX } from './check-keys.ts';
import {
  type CheckDefinitionRecord,
  checkDefinitionSchema,
  type ResultRecord,
  resultSchema,
  stateChangeEvent,
  transitionSchema,
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

/**
 * The state-change event (SPEC.md "Events") of a stored entity transition (a change-feed image), or
 * undefined for any other item: what the notify and action consumers turn into jobs.
 */
export function entityTransitionEvent(item: Item): StateChangeEvent | undefined {
  if (item.entity !== TRANSITION_ENTITY) return undefined;
  const parsed = transitionSchema.safeParse(item);
  if (!parsed.success || parsed.data.kind !== 'entity') return undefined;
  return stateChangeEvent(parsed.data);
}
