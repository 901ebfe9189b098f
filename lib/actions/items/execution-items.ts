import * as z from 'zod';
import { ACTION_LIMITS, TRIGGER_TYPES } from '../../domain/limits.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { type Page, type PageDeps, type PageRequest, readPage } from '../../store/paging.ts';
import type { Condition, Item, Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * Owner of `execution`, `execution_log` and `execution_reservation`: each execution is a partition
 * of its own (`EXEC#<exe_id>`) holding its record (listed per action on gsi1, newest first by id),
 * its send lease and its reported log lines, numbered 1..1000 in report order. The callback token
 * lives in the record as its SHA-256 only (callback-token.ts). A deleted action's executions go by
 * a purge job in bounded rounds (actionExecutionsPage, executionDeletedOp, executionPartition).
 */

/**
 * `running`: a manual run's record, written before its request is sent (issue 36); `interrupted`:
 * the process stopped while that request was in flight (the endpoint may or may not have it).
 */
export const DISPATCH_STATUSES = ['success', 'failed', 'blocked', 'running', 'interrupted'] as const;
export const PIPELINE_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];

const executionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  action_id: z.string(),
  trigger: z.enum(TRIGGER_TYPES),
  dispatch_status: z.enum(DISPATCH_STATUSES),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  /** The first 4 KB of the response body. */
  response_snippet: z.string().nullable(),
  error_message: z.string().nullable(),
  /** null until the pipeline reports; the last write wins. */
  pipeline_status: z.enum(PIPELINE_STATUSES).nullable(),
  transition_id: z.string().nullable(),
  /** The variables the templates were filled with (manual `vars` included). */
  vars: z.record(z.string(), z.string()),
  /** SHA-256 (hex) of the execution's callback token; the token itself is never stored. */
  callback_token_hash: z.string().nullable(),
  callback_expires_at: z.string().nullable(),
  /** When a queued or running pipeline status turns failed (dispatch + pipeline_timeout_seconds). */
  pipeline_deadline_at: z.string().nullable(),
  log_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ExecutionRecord = z.infer<typeof executionSchema>;

const logLineSchema = z.object({ seq: z.number().int(), line: z.string(), at: z.string() });
export type LogLine = z.infer<typeof logLineSchema>;

/** How long a spent lease item stays before TTL removes it (the record is what counts after). */
const RESERVATION_TTL_SECONDS = 86_400;
const LOG_PREFIX = 'LOG#';

/** An execution's partition (its record, lease and log lines): what a partition purge job names. */
export const executionPartition = (executionId: string) => `EXEC#${executionId}`;
/** gsi1 partition of an action's executions, newest first by id (gsi1sk: the execution id). */
const actionExecutionsPk = (actionId: string) => `ACTEXE#${actionId}`;

const execution = defineItem({
  type: itemType('execution'),
  schema: executionSchema,
  key: (k: { id: string }) => ({ pk: executionPartition(k.id), sk: 'EXEC' }),
  gsi1: (r) => ({ pk: actionExecutionsPk(r.action_id), sk: r.id }),
  docKey: { id: '<exe_id>' },
});

const logLine = defineItem({
  type: itemType('execution_log'),
  schema: logLineSchema,
  // Log line sort keys keep report order: LOG#000001 .. LOG#001000.
  key: (k: { execution_id: string; seq: number }) => ({
    pk: executionPartition(k.execution_id),
    sk: `${LOG_PREFIX}${String(k.seq).padStart(6, '0')}`,
  }),
  keyOf: (r, c: { execution_id: string }) => ({ execution_id: c.execution_id, seq: r.seq }),
  docKey: { execution_id: '<exe_id>', seq: 1 },
});

const reservation = defineItem({
  type: itemType('execution_reservation'),
  schema: z.object({ reserved_until_ms: z.number().int() }),
  key: (k: { execution_id: string }) => ({ pk: executionPartition(k.execution_id), sk: 'SENDING' }),
  keyOf: (_r, c: { execution_id: string }) => c,
  ttl: (r) => Math.ceil(r.reserved_until_ms / 1000) + RESERVATION_TTL_SECONDS,
  docKey: { execution_id: '<exe_id>' },
});

/** One execution (consistent), any tenant's (callers check the tenant), or undefined. */
export function getExecution(table: Table, executionId: string): Promise<ExecutionRecord | undefined> {
  return execution.get(table, { id: executionId }, { consistent: true });
}

/** Parses an execution item (the one an update answers). */
export const parseExecution = (item: Item): ExecutionRecord => execution.parse(item);

/** A page of an action's executions (gsi1), newest first; the cursor is sealed for this action's list. */
export async function readActionExecutions(
  deps: PageDeps,
  actionId: string,
  page: PageRequest,
): Promise<{ executions: ExecutionRecord[]; nextCursor: Page['nextCursor'] }> {
  const read = await readPage(
    deps,
    { index: 'gsi1', pk: actionExecutionsPk(actionId), prefix: 'exe_' },
    page,
    (item) => execution.is(item),
  );
  return { executions: read.items.map(parseExecution), nextCursor: read.nextCursor };
}

/** The next executions of an action (gsi1, eventually consistent, any tenant's), for the purge of a deleted action. */
export async function actionExecutionsPage(
  table: Table,
  actionId: string,
  limit: number,
): Promise<{ executions: ExecutionRecord[]; more: boolean }> {
  const page = await table.query({ index: 'gsi1', pk: actionExecutionsPk(actionId), limit });
  return { executions: execution.parseAll(page.items), more: page.cursor !== undefined };
}

/** The put of a new execution (`itemNotExists`: a redelivered run finds its record). */
export function executionCreatedOp(record: ExecutionRecord): WriteOp {
  return execution.put(record, { kind: 'itemNotExists' });
}

/** What a send decides of an execution (the rest of its record was written before the send). */
export type DispatchFields = Pick<
  ExecutionRecord,
  | 'dispatch_status'
  | 'status_code'
  | 'latency_ms'
  | 'response_snippet'
  | 'error_message'
  | 'callback_token_hash'
  | 'callback_expires_at'
  | 'pipeline_deadline_at'
  | 'updated_at'
>;

/**
 * The update completing a record written before its send (`running`, or `interrupted` by a stop
 * meanwhile: the outcome, when it still comes, is the truth). Only the send's fields: a pipeline
 * may have reported through its callback token already.
 */
export function executionDispatchedOp(executionId: string, fields: DispatchFields): UpdateOp {
  return execution.update({ id: executionId }, { set: fields, condition: { kind: 'itemExists' } });
}

/** The update marking a still-`running` execution `interrupted` (its process stops). */
export function executionInterruptedOp(executionId: string, nowIso: string, message: string): UpdateOp {
  return execution.update(
    { id: executionId },
    {
      set: { dispatch_status: 'interrupted', error_message: message, updated_at: nowIso },
      condition: { kind: 'compare', attr: 'dispatch_status', op: '=', value: 'running' },
    },
  );
}

/** The delete of an execution's record (its lease and log lines go with its partition's purge). */
export function executionDeletedOp(executionId: string): WriteOp {
  return execution.delete({ id: executionId });
}

/** The update of the pipeline status of a stored execution while `condition` holds. */
export function pipelineStatusOp(
  executionId: string,
  status: PipelineStatus,
  nowIso: string,
  condition: Condition,
): UpdateOp {
  return execution.update(
    { id: executionId },
    { set: { pipeline_status: status, updated_at: nowIso }, condition },
  );
}

/**
 * The update raising the record's log_count to `count` (a summary of the lines, which are the
 * truth): it fails its condition when a later append wrote a higher count, which stays.
 */
export function logCountRaisedOp(executionId: string, count: number): UpdateOp {
  return execution.update(
    { id: executionId },
    {
      set: { log_count: count },
      condition: {
        kind: 'and',
        conditions: [{ kind: 'itemExists' }, { kind: 'compare', attr: 'log_count', op: '<', value: count }],
      },
    },
  );
}

/**
 * The upsert taking the send lease of an execution until `untilMs`: it fails its condition while
 * another caller holds an unexpired lease; a lease that ran out is taken over.
 */
export function executionReservedOp(executionId: string, nowMs: number, untilMs: number): UpdateOp {
  return reservation.upsert(
    { execution_id: executionId },
    {
      set: { reserved_until_ms: untilMs },
      reindex: { reserved_until_ms: untilMs },
      context: { execution_id: executionId },
      condition: {
        kind: 'or',
        conditions: [
          { kind: 'attrNotExists', attr: 'reserved_until_ms' },
          { kind: 'compare', attr: 'reserved_until_ms', op: '<', value: nowMs },
        ],
      },
    },
  );
}

/** The number of the last stored log line (0 when none), read strongly consistent. */
export async function lastLogLineSeq(table: Table, executionId: string): Promise<number> {
  const page = await table.query({
    pk: executionPartition(executionId),
    sk: { op: 'beginsWith', prefix: LOG_PREFIX },
    direction: 'desc',
    limit: 1,
    consistent: true,
  });
  const last = page.items[0];
  return last ? logLine.parse(last).seq : 0;
}

/** The puts of `lines` numbered from `firstSeq`, each `itemNotExists` (a race for the numbers fails one append). */
export function logLinesAppendedOps(
  executionId: string,
  firstSeq: number,
  lines: string[],
  nowIso: string,
): WriteOp[] {
  return lines.map((line, i) =>
    logLine.put(
      { seq: firstSeq + i, line, at: nowIso },
      { kind: 'itemNotExists' },
      { execution_id: executionId },
    ),
  );
}

/** The reported lines of an execution, in report order (consistent). */
export async function readLogLines(table: Table, executionId: string): Promise<LogLine[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: executionPartition(executionId),
        sk: { op: 'beginsWith', prefix: LOG_PREFIX },
        consistent: true,
        cursor,
      }),
    ACTION_LIMITS.logLinesPerExecution,
  );
  return items.map((item) => logLine.parse(item));
}
