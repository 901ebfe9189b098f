import { type Clock, systemClock } from '../../platform/clock.ts';
import { LogLimitError } from '../../platform/errors.ts';
import { type CursorSeal, createCursorSeal } from '../../store/cursor-seal.ts';
import { loadCursorSecret } from '../../store/cursor-secret.ts';
import { transactIf } from '../../store/items.ts';
import type { Page, PageRequest } from '../../store/paging.ts';
import { type Condition, ConditionFailedError, type Table } from '../../store/table.ts';
import { ACTION_LIMITS } from './action-items.ts';
import {
  type DispatchFields,
  type ExecutionRecord,
  executionCreatedOp,
  executionDispatchedOp,
  executionInterruptedOp,
  executionReservedOp,
  getExecution,
  type LogLine,
  lastLogLineSeq,
  logCountRaisedOp,
  logLinesAppendedOps,
  PIPELINE_STATUSES,
  type PipelineStatus,
  parseExecution,
  pipelineStatusOp,
  readActionExecutions,
  readLogLines,
} from './execution-items.ts';
import { settledRunning } from './run-record.ts';

/** Attempts of a log append that lost a race for the next line numbers to another append. */
const APPEND_ATTEMPTS = 8;

/**
 * Executions (execution-items.ts): each a partition of its own holding the record and its reported log lines. Log lines
 * are numbered 1..1000 in report order; an append claims the next numbers with conditional puts
 * (two appends racing for the same numbers: one retries), so a request's lines are stored whole
 * or not at all, in one transaction of at most 100 lines.
 */
export function createExecutionStore(
  table: Table,
  cursors: CursorSeal = createCursorSeal(() => loadCursorSecret(table)),
  clock: Clock = systemClock,
) {
  // A manual run left `running` by a process that died mid-send reads `interrupted` (run-record.ts).
  const get = async (executionId: string): Promise<ExecutionRecord | undefined> => {
    const record = await getExecution(table, executionId);
    return record && settledRunning(record, clock.now());
  };

  return {
    /** Stores a new execution; false when one with its id is stored already (a redelivered run). */
    putNew: (record: ExecutionRecord): Promise<boolean> => transactIf(table, [executionCreatedOp(record)]),

    /** Completes a record stored before its send with the send's outcome. */
    async complete(executionId: string, fields: DispatchFields): Promise<void> {
      await table.update(executionDispatchedOp(executionId, fields));
    },

    /** Marks a still-running execution interrupted; false when it is no longer running. */
    async interrupt(executionId: string, nowIso: string, message: string): Promise<boolean> {
      try {
        await table.update(executionInterruptedOp(executionId, nowIso, message));
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
        await table.update(executionReservedOp(executionId, nowMs, untilMs));
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },

    /** One execution, any tenant's (callers check the tenant), or undefined. */
    get,

    /** A page of an action's executions, newest first; the cursor is sealed for this action's list. */
    listForAction: (
      actionId: string,
      page: PageRequest,
    ): Promise<{ executions: ExecutionRecord[]; nextCursor: Page['nextCursor'] }> =>
      readActionExecutions({ table, cursors }, actionId, page).then((read) => ({
        ...read,
        executions: read.executions.map((record) => settledRunning(record, clock.now())),
      })),

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
        return parseExecution(await table.update(pipelineStatusOp(executionId, status, nowIso, condition)));
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
        const previous = await lastLogLineSeq(table, executionId);
        if (previous + lines.length > ACTION_LIMITS.logLinesPerExecution) throw new LogLimitError();
        try {
          await table.transact(logLinesAppendedOps(executionId, previous + 1, lines, nowIso));
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
    readLogs: (executionId: string): Promise<LogLine[]> => readLogLines(table, executionId),
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
    await table.update(logCountRaisedOp(executionId, count));
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

export type ExecutionStore = ReturnType<typeof createExecutionStore>;
