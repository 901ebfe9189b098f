import * as z from 'zod';
import { CHECK_TYPES, type CheckType } from '../check-types/check-config.ts';
import {
  type CheckDefinitionRecord,
  checkDefinitionSchema,
  checkFieldsSchema,
} from '../check-types/check-record.ts';
import { unchanged } from '../store/conditions.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { batchGetAll, queryAll } from '../store/items.ts';
import { migrationMarker } from '../store/marked-migration.ts';
import type { PageSource } from '../store/paging.ts';
import { tenantItemKeys, tenantPk } from '../store/partitions.ts';
import { type Item, MAX_QUERY_LIMIT, type Table, type WriteOp } from '../store/table.ts';

/**
 * Owner of a check's definition item (`check`, `CHECK#<chk_id>` in the tenant's partition;
 * docs/data-model.md "Checks"): what the API sets, written only by the API. gsi1 lists an entity's
 * checks. Its running state is in the check's own partition (check-state-items.ts); a read of the
 * tenant's `CHECK#` items returns the definitions, whose states are then read by key.
 */

const CHECK_PREFIX = 'CHECK#';
const entityChecksPk = (entityId: string) => `ENT#${entityId}#CHECKS`;

const definitionItem = defineItem({
  type: itemType('check'),
  schema: checkDefinitionSchema as z.ZodType<CheckDefinitionRecord>,
  ...tenantItemKeys(CHECK_PREFIX, '<chk_id>'),
  gsi1: (r) => ({ pk: entityChecksPk(r.entity_id), sk: r.id }),
});

/** The put of a new check's definition (only if absent). */
export function definitionCreatedOp(definition: CheckDefinitionRecord): WriteOp {
  return definitionItem.put(definition, { kind: 'itemNotExists' });
}

/** An API write of a check's definition fields, held on the version it read; bumps the version. */
export function definitionUpdatedOp(
  tenantId: string,
  checkId: string,
  fields: Partial<CheckDefinitionRecord>,
  version: number,
): WriteOp {
  return definitionItem.update(
    { tenant_id: tenantId, id: checkId },
    { set: fields, add: { version: 1 }, condition: unchanged('version', version) },
  );
}

/** The delete of a check's definition, held on its version when one is given (an entity's purge gives none). */
export function definitionDeletedOp(tenantId: string, checkId: string, version?: number): WriteOp {
  return definitionItem.delete(
    { tenant_id: tenantId, id: checkId },
    version === undefined ? undefined : unchanged('version', version),
  );
}

/** The definitions among `items` (a read of the tenant's `CHECK#` items may hold an unmigrated state). */
export function parseDefinitions(items: readonly Item[]): CheckDefinitionRecord[] {
  return definitionItem.parseAll(items);
}

/** Whether `item` is a check definition. */
export function isDefinition(item: Item): boolean {
  return definitionItem.is(item);
}

/** A transaction op that holds only while the check exists (its definition item). */
export function checkExistsOp(tenantId: string, checkId: string): WriteOp {
  return definitionItem.conditionCheck({ tenant_id: tenantId, id: checkId }, { kind: 'itemExists' });
}

/** The check's definition, or undefined when there is no such check of the tenant. */
export function getCheckDefinition(
  table: Table,
  tenantId: string,
  checkId: string,
  options: { consistent?: boolean } = {},
): Promise<CheckDefinitionRecord | undefined> {
  return definitionItem.get(table, { tenant_id: tenantId, id: checkId }, options);
}

/** Every check item of a tenant (its definitions; states are in the checks' partitions), consistent. */
export function tenantCheckItems(table: Table, tenantId: string): Promise<Item[]> {
  return queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: CHECK_PREFIX },
      cursor,
      consistent: true,
    }),
  );
}

/** The definitions of the given checks of a tenant (missing ones are absent). */
export async function checkDefinitionsById(
  table: Table,
  tenantId: string,
  checkIds: readonly string[],
): Promise<CheckDefinitionRecord[]> {
  const items = await batchGetAll(
    table,
    checkIds.map((id) => definitionItem.key({ tenant_id: tenantId, id })),
  );
  return definitionItem.parseAll(items);
}

const checkTypeSchema = z.object({ id: z.string(), check_type: z.enum(CHECK_TYPES) });

/** check id -> check type of the definitions among `items` (parsing only those two fields). */
function typesOf(items: readonly Item[]): Map<string, CheckType> {
  return new Map(
    items
      .filter((item) => definitionItem.is(item))
      .map((item) => {
        const check = checkTypeSchema.parse(item);
        return [check.id, check.check_type] as const;
      }),
  );
}

/**
 * check id -> type of the tenant's checks: every one (the tenant's check items), or those of
 * `checkIds` (by key).
 */
export async function checkTypesOf(
  table: Table,
  tenantId: string,
  checkIds?: readonly string[],
): Promise<Map<string, CheckType>> {
  if (checkIds === undefined) return typesOf(await tenantCheckItems(table, tenantId));
  const items = await batchGetAll(
    table,
    [...new Set(checkIds)].map((id) => definitionItem.key({ tenant_id: tenantId, id })),
  );
  return typesOf(items);
}

// Only the cell is needed: a definition stored without one (or before ids were read from items)
// has no cell to leave.
const cellPlaceSchema = checkFieldsSchema.pick({ cell: true }).extend({ id: z.string().optional() });

/** The cells the given checks of a tenant run in (parsing only that field: the purge needs no more). */
export async function cellPlacesOf(
  table: Table,
  tenantId: string,
  checkIds: readonly string[],
): Promise<{ checkId: string; place: { cell_id: string; shard: number } }[]> {
  const items = await batchGetAll(
    table,
    checkIds.map((id) => definitionItem.key({ tenant_id: tenantId, id })),
  );
  return items.flatMap((item) => {
    const { id, cell } = cellPlaceSchema.parse(item);
    return cell && id ? [{ checkId: id, place: cell }] : [];
  });
}

/** The paged list of a tenant's checks (its partition's `CHECK#` items), for sealed cursors. */
export function tenantChecksSource(tenantId: string): PageSource {
  return { pk: tenantPk(tenantId), prefix: CHECK_PREFIX, scope: 'check list' };
}

/** The paged list of an entity's checks (gsi1), for sealed cursors. */
export function entityChecksSource(tenantId: string, entityId: string): PageSource {
  return { index: 'gsi1', pk: entityChecksPk(entityId), prefix: 'chk_', scope: `check list of ${tenantId}` };
}

/** Up to `limit` ids of the tenant's checks of an entity (gsi1, eventually consistent), for its purge. */
export async function entityCheckIds(
  table: Table,
  tenantId: string,
  entityId: string,
  limit: number,
): Promise<{ ids: string[]; more: boolean }> {
  const page = await table.query({ index: 'gsi1', pk: entityChecksPk(entityId), limit });
  const ids = page.items
    .filter((item) => item.pk === tenantPk(tenantId) && definitionItem.is(item))
    // The gsi1 sort key is the check's id (a purge reads keys, not the item's other attributes).
    .map((item) => String(item.gsi1sk));
  return { ids, more: page.cursor !== undefined };
}

/** One query of the tenant's check items (its definitions) in sort order. */
export async function tenantCheckItemsPage(
  table: Table,
  tenantId: string,
  input: { limit: number; cursor: string | undefined },
): Promise<{ items: Item[]; cursor: string | undefined }> {
  const read = await table.query({
    pk: tenantPk(tenantId),
    sk: { op: 'beginsWith', prefix: CHECK_PREFIX },
    direction: 'asc',
    consistent: true,
    limit: Math.min(MAX_QUERY_LIMIT, input.limit),
    cursor: input.cursor,
  });
  return { items: read.items, cursor: read.cursor };
}

/** One query of an entity's check definitions (gsi1, eventually consistent), in id order. */
export async function entityDefinitionItemsPage(
  table: Table,
  tenantId: string,
  entityId: string,
  input: { limit: number; cursor: string | undefined },
): Promise<{ items: Item[]; cursor: string | undefined }> {
  const read = await table.query({
    index: 'gsi1',
    pk: entityChecksPk(entityId),
    sk: { op: 'beginsWith', prefix: 'chk_' },
    direction: 'asc',
    limit: Math.min(MAX_QUERY_LIMIT, input.limit),
    cursor: input.cursor,
  });
  const items = read.items.filter((item) => item.pk === tenantPk(tenantId) && definitionItem.is(item));
  return { items, cursor: read.cursor };
}

/** A first-layout check item replaced by its definition alone, held on the version read (the layout migration). */
export function definitionReplacedOp(definition: CheckDefinitionRecord, version: number): WriteOp {
  return definitionItem.put(definition, unchanged('version', version));
}

/** Written once every tenant's checks are in the definition-and-state layout: later runs read only this. */
export const checkLayoutMarker = migrationMarker('check-state-items', 'checks_moved', true);
