import type { StateChangeEvent } from '../../domain/states.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import { LogLimitError } from '../../platform/errors.ts';
import {
  delaySecondsFor,
  type JobInput,
  type JobQueue,
  MAX_DELAY_SECONDS,
} from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ActionStore } from '../items/action-store.ts';
import type { ExecutionRecord, PipelineStatus } from '../items/execution-items.ts';
import type { ExecutionStore } from '../items/execution-store.ts';
import type { ActionRunner } from '../items/ports.ts';
import { deadlineHopJobId, deadlineJobId, stateChangeExecutionId } from '../job-ids.ts';
import { type ActionJob, runJob } from '../jobs.ts';

/**
 * The action worker: the action queue's job handler (the local job runner and the action Lambda
 * call `handle`). A `state_change` job fans out to one `run` job per matching action; a `run` job
 * runs one execution whose id is deterministic, so a redelivered job is answered by the stored
 * execution and nothing is sent twice; a `deadline` job fails a pipeline that never reported a
 * final status in time.
 */

export interface ActionWorkerDeps {
  clock: Clock;
  logger: Logger;
  queue: JobQueue<ActionJob>;
  actions: Pick<ActionStore, 'get' | 'listForCheck'>;
  executions: Pick<ExecutionStore, 'get' | 'setPipelineStatus' | 'appendLogs'>;
  runner: ActionRunner;
}

type DeadlineJob = Extract<ActionJob, { kind: 'deadline' }>;

/** Pipeline statuses a deadline turns into failed (null: the pipeline never reported). */
const PENDING: Array<PipelineStatus | null> = [null, 'queued', 'running'];

/** The deadline job of a dispatched execution (undefined without a deadline), delayed by at most one hop. */
function deadlineJobFor(execution: ExecutionRecord, nowMs: number): JobInput<ActionJob> | undefined {
  if (execution.pipeline_deadline_at === null) return undefined;
  const dueMs = Date.parse(execution.pipeline_deadline_at);
  return {
    id: deadlineJobId(execution.id),
    body: { kind: 'deadline', tenant_id: execution.tenant_id, execution_id: execution.id, due_ms: dueMs },
    delaySeconds: delaySecondsFor(dueMs, nowMs),
  };
}

/** Enqueues the deadline of a dispatched execution (the runner's onDispatched for every run); throws when not enqueued. */
export async function scheduleDeadline(
  deps: { queue: JobQueue<ActionJob>; clock: Clock },
  execution: ExecutionRecord,
): Promise<void> {
  const job = deadlineJobFor(execution, deps.clock.now());
  if (job) await enqueueAll(deps.queue, [job]);
}

async function enqueueAll(queue: JobQueue<ActionJob>, jobs: JobInput<ActionJob>[]): Promise<void> {
  if (jobs.length === 0) return;
  const { failed } = await queue.enqueue(jobs);
  if (failed.length > 0) throw new Error(`${failed.length} action job(s) could not be enqueued`);
}

/** Builds the worker over the stores, the action queue and the runner. */
export function createActionWorker(deps: ActionWorkerDeps) {
  const { clock, logger } = deps;

  /** The check's state_change actions of the event's tenant whose trigger_to_state matches: one run job each. */
  const onStateChange = async (event: StateChangeEvent): Promise<void> => {
    const actions = await deps.actions.listForCheck(event.check_id);
    const eventMs = Date.parse(event.timestamp);
    const jobs = actions
      .filter(
        (action) =>
          action.tenant_id === event.tenant_id &&
          action.trigger_type === 'state_change' &&
          (action.trigger_to_state === null || action.trigger_to_state === event.to_state),
      )
      .map((action) =>
        runJob(action, stateChangeExecutionId(eventMs, event.transition_id, action.id), {
          trigger: 'state_change',
          event,
        }),
      );
    await enqueueAll(deps.queue, jobs);
  };

  const onRun = async (job: Extract<ActionJob, { kind: 'run' }>): Promise<void> => {
    const action = await deps.actions.get(job.tenant_id, job.action_id);
    // Deleted, or no longer triggered this way since the job was enqueued: nothing to run.
    if (!action || action.trigger_type !== job.trigger) return;
    const execution = await deps.runner.run({
      action,
      trigger: job.trigger,
      executionId: job.execution_id,
      ...(job.event ? { event: job.event } : {}),
    });
    // The runner schedules the deadline of a new execution; a redelivered job (whose first
    // delivery may have stopped before that) makes sure of it while the pipeline is pending.
    if (PENDING.includes(execution.pipeline_status)) await scheduleDeadline(deps, execution);
  };

  const onDeadline = async (job: DeadlineJob): Promise<void> => {
    const nowMs = clock.now();
    if (nowMs < job.due_ms) {
      // Not due yet (a delay is at most 15 minutes): wait another hop, under an id naming where it lands.
      const landsMs = Math.min(job.due_ms, nowMs + MAX_DELAY_SECONDS * 1000);
      await enqueueAll(deps.queue, [
        {
          id: deadlineHopJobId(job.execution_id, landsMs),
          body: job,
          delaySeconds: delaySecondsFor(landsMs, nowMs),
        },
      ]);
      return;
    }
    const execution = await deps.executions.get(job.execution_id);
    if (!execution || execution.tenant_id !== job.tenant_id || execution.pipeline_deadline_at === null)
      return;
    const nowIso = isoTime(nowMs);
    const failed = await deps.executions.setPipelineStatus(execution.id, 'failed', nowIso, PENDING);
    // A final status reported in time (or meanwhile) stands: the last write of the pipeline wins.
    if (!failed) return;
    const seconds = Math.round(
      (Date.parse(execution.pipeline_deadline_at) - Date.parse(execution.created_at)) / 1000,
    );
    try {
      await deps.executions.appendLogs(
        execution.id,
        [`no final status within ${seconds} s of dispatch`],
        nowIso,
      );
    } catch (err) {
      // The pipeline used up the 1,000 lines: the status says it failed, the reason goes unlogged.
      if (!(err instanceof LogLimitError)) throw err;
    }
    logger.info('pipeline deadline passed; execution failed', { execution_id: execution.id, seconds });
  };

  /** Runs one delivery of an action job; throws to have the queue bring it back after its retry delay. */
  const handle = async (job: { body: ActionJob }): Promise<void> => {
    const { body } = job;
    switch (body.kind) {
      case 'state_change':
        return onStateChange(body.event);
      case 'run':
        return onRun(body);
      case 'deadline':
        return onDeadline(body);
    }
  };

  return { handle };
}
