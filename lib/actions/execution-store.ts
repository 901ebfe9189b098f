import { LogLimitError } from '../platform/errors.ts';
import { type CursorSeal, createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { type Page, type PageRequest, readPage } from '../store/paging.ts';
import { type Condition, ConditionFailedError, type Item, type NewItem, type Table } from '../store/table.ts';
import {
  actionExecutionsPk,
  actionKeys,
  actionTypes,
  executionPartition,
  LOG_PREFIX,
} from './action-keys.ts';
import {
  ACTION_LIMITS,
  type ExecutionRecord,
  executionSchema,
  type LogLine,
  logLineSchema,
  PIPELINE_STATUSES,
  type PipelineStatus,
} from './records.ts';

/** How long a spent lease item stays before TTL removes it (the record is what counts after). */
const RESERVATION_TTL_SECONDS = 86_400;

/** Attempts of a log append that lost a race for the next line numbers to another append. */
const APPEND_ATTEMPTS = 8;

/** The stored item of an execution: its partition's record, listed per action on gsi1 (newest first by id). */
export function executionItem(record: ExecutionRecord): NewItem {
  return {
    ...actionKeys.execution(record.id),
    ...stamp(actionTypes.execution),
    gsi1pk: actionExecutionsPk(record.action_id),
    gsi1sk: record.id,
    ...record,
  };
}

/**
 * Executions: each a partition of its own holding the record and its reported log lines. Log lines
 * are numbered 1..1000 in report order; an append claims the next numbers with conditional puts
 * (two appends racing for the same numbers: one retries), so a request's lines are stored whole
 * or not at all, in one transaction of at most 100 lines.
 */
export function createExecutionStore(
  table: Table,
  cursors: CursorSeal = createCursorSeal(() => loadCursorSecret(table)),
) {
  const parse = (item: Item) => parseItem(executionSchema, item);
  const get = async (executionId: string): Promise<ExecutionRecord | undefined> => {
    const item = await table.get(actionKeys.execution(executionId), { consistent: true });
    return item ? parse(item) : undefined;
  };

  /** The number of the last stored line (0 when none), read strongly consistent. */
  const lastLineSeq = async (executionId: string): Promise<number> => {
    const page = await table.query({
      pk: executionPartition(executionId),
      sk: { op: 'beginsWith', prefix: LOG_PREFIX },
      direction: 'desc',
      limit: 1,
      consistent: true,
    });
    const last = page.items[0];
    return last ? parseItem(logLineSchema, last).seq : 0;
  };

  return {
    /** Stores a new execution; false when one with its id is stored already (a redelivered run). */
    async putNew(record: ExecutionRecord): Promise<boolean> {
      try {
        await table.transact([
          { type: 'put', item: executionItem(record), condition: { kind: 'itemNotExists' } },
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },

    /**
     * Takes the lease to send execution `executionId` until `untilMs`; false while another caller
     * holds an unexpired one. A lease that ran out (its holder died before storing the record) is
     * taken over, so a crash between reserving and recording never loses the run.
     */
    async reserve(executionId: string, nowMs: number, untilMs: number): Promise<boolean> {
      try {
        await table.update({
          type: 'update',
          key: actionKeys.reservation(executionId),
          set: {
            ...stamp(actionTypes.reservation),
            reserved_until_ms: untilMs,
            ttl: Math.ceil(untilMs / 1000) + RESERVATION_TTL_SECONDS,
          },
          condition: {
            kind: 'or',
            conditions: [
              { kind: 'attrNotExists', attr: 'reserved_until_ms' },
              { kind: 'compare', attr: 'reserved_until_ms', op: '<', value: nowMs },
            ],
          },
        });
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },

    /** One execution, any tenant's (callers check the tenant), or undefined. */
    get,

    /** A page of an action's executions, newest first; the cursor is sealed for this action's list. */
    async listForAction(
      actionId: string,
      page: PageRequest,
    ): Promise<{ executions: ExecutionRecord[]; nextCursor: Page['nextCursor'] }> {
      const read = await readPage(
        { table, cursors },
        { index: 'gsi1', pk: actionExecutionsPk(actionId), prefix: 'exe_' },
        page,
        (item) => item.entity === actionTypes.execution.entity,
      );
      return { executions: read.items.map(parse), nextCursor: read.nextCursor };
    },

    /**
     * Sets the pipeline status (the last write wins); with `onlyFrom`, only while the stored status
     * is one of those (null: never reported). Answers the record after the write, or undefined when
     * the execution is gone or its status was not one of `onlyFrom`.
     */
    async setPipelineStatus(
      executionId: string,
      status: PipelineStatus,
      nowIso: string,
      onlyFrom?: Array<PipelineStatus | null>,
    ): Promise<ExecutionRecord | undefined> {
      const condition: Condition = onlyFrom
        ? { kind: 'and', conditions: [{ kind: 'itemExists' }, statusIn(onlyFrom)] }
        : { kind: 'itemExists' };
      try {
        const item = await table.update({
          type: 'update',
          key: actionKeys.execution(executionId),
          set: { pipeline_status: status, updated_at: nowIso },
          condition,
        });
        return parse(item);
      } catch (error) {
        if (error instanceof ConditionFailedError) return undefined;
        throw error;
      }
    },

    /**
     * Appends a request's lines after the stored ones, all or none: LogLimitError (409) when they
     * would pass ACTION_LIMITS.logLinesPerExecution. Answers false when the execution is gone.
     */
    async appendLogs(executionId: string, lines: string[], nowIso: string): Promise<boolean> {
      if (lines.length === 0) return (await get(executionId)) !== undefined;
      if (lines.length > ACTION_LIMITS.logLinesPerRequest)
        throw new RangeError(`at most ${ACTION_LIMITS.logLinesPerRequest} lines per append`);
      for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt += 1) {
        if ((await get(executionId)) === undefined) return false;
        const previous = await lastLineSeq(executionId);
        if (previous + lines.length > ACTION_LIMITS.logLinesPerExecution) throw new LogLimitError();
        try {
          await table.transact(
            lines.map((line, i) => ({
              type: 'put' as const,
              item: {
                ...actionKeys.logLine(executionId, previous + 1 + i),
                ...stamp(actionTypes.logLine),
                seq: previous + 1 + i,
                line,
                at: nowIso,
              },
              condition: { kind: 'itemNotExists' as const },
            })),
          );
        } catch (error) {
          if (error instanceof ConditionFailedError) continue;
          throw error;
        }
        await recordLogCount(table, executionId, previous + lines.length);
        return true;
      }
      throw new Error(`log append to ${executionId} kept losing races for line numbers`);
    },

    /** The reported lines of an execution, in report order. */
    async readLogs(executionId: string): Promise<LogLine[]> {
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
      return items.map((item) => parseItem(logLineSchema, item));
    },
  };
}

/**
 * Holds while the stored pipeline status is one of `allowed`. A status never reported is stored as
 * null, which no string equals and every `<>` admits, so with null allowed the condition excludes
 * the other statuses instead of naming the allowed ones.
 */
function statusIn(allowed: Array<PipelineStatus | null>): Condition {
  const attr = 'pipeline_status';
  if (allowed.includes(null)) {
    const excluded = PIPELINE_STATUSES.filter((status) => !allowed.includes(status));
    if (excluded.length === 0) return { kind: 'itemExists' };
    return { kind: 'and', conditions: excluded.map((value) => ({ kind: 'compare', attr, op: '<>', value })) };
  }
  if (allowed.length === 0) return { kind: 'itemNotExists' };
  return {
    kind: 'or',
    conditions: allowed.flatMap((value) =>
      value === null ? [] : [{ kind: 'compare', attr, op: '=', value }],
    ),
  };
}

/**
 * Raises the record's log_count to `count` (a summary of the lines, which are the truth): a stale
 * lower count is overwritten, a higher one written by a later append is left alone.
 */
async function recordLogCount(table: Table, executionId: string, count: number): Promise<void> {
  try {
    await table.update({
      type: 'update',
      key: actionKeys.execution(executionId),
      set: { log_count: count },
      condition: {
        kind: 'and',
        conditions: [{ kind: 'itemExists' }, { kind: 'compare', attr: 'log_count', op: '<', value: count }],
      },
    });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

export type ExecutionStore = ReturnType<typeof createExecutionStore>;
