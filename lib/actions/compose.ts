import type { RateLimitGuard } from '../auth/rate-limit.ts';
import type { TenantStore } from '../auth/tenant-store.ts';
import type { CheckStore } from '../checks/check-store.ts';
import type { Principal } from '../domain/principal.ts';
import type { Route, RouteContext } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { EgressSettings } from '../platform/egress.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { createActionService } from './action-service.ts';
import { createActionStore } from './action-store.ts';
import { createActionRunner } from './execute.ts';
import { createExecutionStore } from './execution-store.ts';
import type { ActionJob } from './jobs.ts';
import { actionRoutes } from './routes.ts';
import { actionRunRoutes } from './run-routes.ts';
import { createActionTriggerConsumer } from './trigger-consumer.ts';
import { createActionWorker, scheduleDeadline } from './worker.ts';

export interface ActionsDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'runtime' | 'egressAllow' | 'publicUrl' | 'dueShards'>;
  /** The action queue: the local SQLite queue or SQS. */
  queue: JobQueue<ActionJob>;
  checks: Pick<CheckStore, 'get'>;
  cursors: CursorSeal;
  /** Outbound TLS trust, name resolution (tests: a test CA, loopback receivers) and the process's pools. */
  egress?: EgressSettings | undefined;
  /** The router's API-key authentication, for the events route that also takes a callback token. */
  authenticateKey(ctx: RouteContext): Promise<Principal>;
  /** The rate-limit steps of callback tokens (failed attempts, writes per execution and tenant). */
  limits: Pick<RateLimitGuard, 'attempt' | 'admitCallback'>;
  tenants: Pick<TenantStore, 'getTenant'>;
}

/** The actions feature as the app composes it: stores, the runner, the worker, its routes and its change consumer. */
export function composeActions(deps: ActionsDeps) {
  const { clock, config } = deps;
  const actions = createActionStore(deps.table, { dueShards: config.dueShards });
  const executions = createExecutionStore(deps.table, deps.cursors);
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
  const routes: Route[] = [
    ...actionRoutes({
      actionService: createActionService({
        actions,
        executions,
        checkExists: async (tenantId, checkId) => (await deps.checks.get(tenantId, checkId)) !== undefined,
        clock,
        egressAllow: config.egressAllow,
        runtime: config.runtime,
        resolve: deps.egress?.resolve,
      }),
      executions,
      clock,
      authenticateKey: deps.authenticateKey,
      limits: deps.limits,
      tenants: deps.tenants,
    }),
    ...actionRunRoutes({ actions, runner: actionRunner, clock }),
  ];
  const consumer: ChangeConsumer = createActionTriggerConsumer({ queue: deps.queue, logger: deps.logger });
  return { actions, executions, actionRunner, actionWorker, routes, consumer };
}
