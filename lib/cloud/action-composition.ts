import { composeActionWorker } from '../actions/compose-worker.ts';
import type { ActionJob } from '../actions/jobs.ts';
import { createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import type { CloudBase } from './cloud-base.ts';
import { containerEgress } from './edge/container-egress.ts';
import { queueFunctionMetrics } from './edge/metrics.ts';
import { lazySqsBatchHandler } from './queues/sqs-batch.ts';

/** The action worker function: the action stores, runner and worker over the action queue; no routes. */
export function composeActionFunction(base: CloudBase) {
  const { table, clock, logger, config } = base;
  const actions = composeActionWorker({
    table,
    clock,
    logger,
    config,
    queue: base.actionQueue,
    cursors: createCursorSeal(() => loadCursorSecret(table)),
    egress: containerEgress(base.overrides.egress),
  });
  const metrics = queueFunctionMetrics(base, 'actions', (job: ActionJob) =>
    job.kind === 'run' ? { ok: 'ActionRuns', failed: 'ActionRunsFailed' } : undefined,
  );
  return {
    ...metrics.edge,
    actionWorker: actions.actionWorker,
    /**
     * The action worker Lambda's SQS batch handler; needs VIGIL_ACTION_QUEUE_URL, read at the first
     * invocation so that importing the function module (tests do) needs no queue.
     */
    actionWorkerHandler() {
      return lazySqsBatchHandler(() => ({
        queue: base.requireActionQueue('the action worker sets retry delays there'),
        handle: (job) => actions.actionWorker.handle(job),
        logger,
        metrics: metrics.batch,
      }));
    },
  };
}
