import type { EgressSettings } from '../egress/egress.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { createActionStore } from './items/action-store.ts';
import { createExecutionStore } from './items/execution-store.ts';
import type { ActionJob } from './jobs.ts';
import { createActionRunner } from './runs/execute.ts';
import { createActionWorker, scheduleDeadline } from './runs/worker.ts';

export interface ActionWorkerDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'runtime' | 'egressAllow' | 'publicUrl' | 'dueShards'>;
  /** The action queue: the local SQLite queue or SQS. */
  queue: JobQueue<ActionJob>;
  cursors: CursorSeal;
  /** Outbound TLS trust and name resolution (tests: a test CA, loopback receivers). */
  egress?: EgressSettings | undefined;
}

/**
 * The action stores, the runner and the worker, without the routes: what the action function
 * runs (lib/cloud/action-composition.ts) and what the app's action routes build on.
 */
export function composeActionWorker(deps: ActionWorkerDeps) {
  const { clock, config } = deps;
  const actions = createActionStore(deps.table, { dueShards: config.dueShards });
  const executions = createExecutionStore(deps.table, deps.cursors, clock);
  const actionRunner = createActionRunner({
    executions,
    clock,
    logger: deps.logger.child({ component: 'actions' }),
    egressAllow: config.egressAllow,
    runtime: config.runtime,
    ...deps.egress,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    onDispatched: (execution) => scheduleDeadline({ queue: deps.queue, clock }, execution),
  });
  const actionWorker = createActionWorker({
    clock,
    logger: deps.logger.child({ component: 'action-worker' }),
    queue: deps.queue,
    actions,
    executions,
    runner: actionRunner,
  });
  return { actions, executions, actionRunner, actionWorker };
}
