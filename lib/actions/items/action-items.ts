import * as z from 'zod';
import { ACTION_LIMITS, ACTION_METHODS, TRIGGER_STATES, TRIGGER_TYPES } from '../../domain/limits.ts';
import { shardOf } from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import { belowLimit } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantItemKeys, tenantPk } from '../../store/partitions.ts';
import type { Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * Owner of `action` and `action_count` (always written together): an action lives in its tenant's
 * partition (listed by `ACTION#`), indexed by its check (gsi1, state_change actions) and, while
 * scheduled, in the actions' own due index (gsi2, sharded like the checks' and claimed the same
 * way); the counter beside it keeps the limit of 50 under concurrent creates. Stored shapes follow
 * SPEC.md "Action" and DECISIONS.md "Actions"; public views are responses.ts.
 */

export { ACTION_LIMITS, ACTION_METHODS, TRIGGER_STATES, TRIGGER_TYPES } from '../../domain/limits.ts';

const actionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  url: z.string(),
  method: z.enum(ACTION_METHODS),
  /** Stored in full; every response shows `********` for each value. */
  headers: z.record(z.string(), z.string()),
  body_template: z.string(),
  trigger_type: z.enum(TRIGGER_TYPES),
  check_id: z.string().nullable(),
  /** null: any target state. */
  trigger_to_state: z.enum(TRIGGER_STATES).nullable(),
  interval_seconds: z.number().int().nullable(),
  timeout_ms: z.number().int(),
  pipeline_timeout_seconds: z.number().int(),
  /** schedule actions: the next slot (the due index keys on it); null otherwise. */
  next_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write (optimistic updates; a claim of a stale schedule slot fails). */
  version: z.number().int(),
});
export type ActionRecord = z.infer<typeof actionSchema>;

/** Where an action's due-index entry goes: the deployment's shard count (config.dueShards). */
export interface DueIndex {
  dueShards: number;
}

const ACTION_PREFIX = 'ACTION#';
/** gsi1 partition of the state_change actions of a check (gsi1sk: the action id). */
const checkActionsPk = (checkId: string) => `CHKACT#${checkId}`;
/** gsi2 partition of scheduled actions due, sharded; sort key `<next_run_at>#<act_id>`. */
const actionDuePk = (shard: number) => `ACTDUE#${shard}`;

const action = defineItem({
  type: itemType('action'),
  schema: actionSchema,
  ...tenantItemKeys(ACTION_PREFIX, '<act_id>'),
  gsi1: (r) =>
    r.trigger_type === 'state_change' && r.check_id
      ? { pk: checkActionsPk(r.check_id), sk: r.id }
      : undefined,
  gsi2: (r, due: DueIndex) =>
    r.trigger_type === 'schedule' && r.next_run_at
      ? { pk: actionDuePk(shardOf(r.id, due.dueShards)), sk: `${r.next_run_at}#${r.id}` }
      : undefined,
});

const actionCount = defineItem({
  type: itemType('action_count'),
  schema: z.object({ tenant_id: z.string(), count: z.number().int() }),
  key: (k: { tenant_id: string }) => ({ pk: tenantPk(k.tenant_id), sk: 'ACTIONCOUNT' }),
  docKey: { tenant_id: '<tnt>' },
});

/** One action of the tenant (consistent), or undefined. */
export function getAction(
  table: Table,
  tenantId: string,
  actionId: string,
): Promise<ActionRecord | undefined> {
  return action.get(table, { tenant_id: tenantId, id: actionId }, { consistent: true });
}

/** Every action of the tenant (at most 50), oldest first (consistent). */
export async function listActions(table: Table, tenantId: string): Promise<ActionRecord[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: ACTION_PREFIX },
        consistent: true,
        cursor,
      }),
    ACTION_LIMITS.actionsPerTenant * 2,
  );
  return items.map((item) => action.parse(item));
}

/** The state_change actions attached to a check (gsi1, eventually consistent), any tenant's. */
export async function listActionsOfCheck(table: Table, checkId: string): Promise<ActionRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({ index: 'gsi1', pk: checkActionsPk(checkId), cursor }),
  );
  return action.parseAll(items);
}

/**
 * One page of scheduled actions due at `nowMs` in one shard of the due index (gsi2, eventually
 * consistent), and the cursor of the next page.
 */
export async function dueActionsPage(
  table: Table,
  shard: number,
  nowMs: number,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ actions: ActionRecord[]; cursor?: string }> {
  const result = await table.query({
    index: 'gsi2',
    pk: actionDuePk(shard),
    // Sort keys are `<next_run_at>#<id>`: everything before the next millisecond is due.
    sk: { op: '<', value: isoTime(nowMs + 1) },
    limit: page.limit,
    cursor: page.cursor,
  });
  return {
    actions: result.items.map((item) => action.parse(item)),
    ...(result.cursor ? { cursor: result.cursor } : {}),
  };
}

/** The writes that create an action: the counter's add (below the limit: first op) and the put (`itemNotExists`). */
export function actionCreatedOps(record: ActionRecord, due: DueIndex): WriteOp[] {
  return [
    actionCount.upsert(
      { tenant_id: record.tenant_id },
      {
        set: { tenant_id: record.tenant_id },
        add: { count: 1 },
        condition: belowLimit('count', ACTION_LIMITS.actionsPerTenant),
      },
    ),
    action.put(record, { kind: 'itemNotExists' }, due),
  ];
}

/** The whole put of a changed action (carrying the next version) while its stored version is `expectedVersion`. */
export function actionReplacedOp(record: ActionRecord, expectedVersion: number, due: DueIndex): WriteOp {
  return action.put(record, { kind: 'compare', attr: 'version', op: '=', value: expectedVersion }, due);
}

/** The writes that delete an action (`itemExists`: first op) and count it off; the caller adds the purge job. */
export function actionRemovedOps(tenantId: string, actionId: string): WriteOp[] {
  return [
    action.delete({ tenant_id: tenantId, id: actionId }, { kind: 'itemExists' }),
    actionCount.upsert({ tenant_id: tenantId }, { set: { tenant_id: tenantId }, add: { count: -1 } }),
  ];
}

/**
 * The update that moves a schedule action to `nextRunAt` (its due-index entry with it) while its
 * version is still `record.version`: a claim of a slot that someone else claimed, or of an action
 * edited meanwhile, fails its condition instead of running twice.
 */
export function scheduleClaimOp(
  record: ActionRecord,
  nextRunAt: string,
  due: DueIndex,
  nowIso: string,
): UpdateOp {
  return action.update(
    { tenant_id: record.tenant_id, id: record.id },
    {
      set: { next_run_at: nextRunAt, updated_at: nowIso },
      add: { version: 1 },
      reindex: { ...record, next_run_at: nextRunAt },
      context: due,
      condition: { kind: 'compare', attr: 'version', op: '=', value: record.version },
    },
  );
}
