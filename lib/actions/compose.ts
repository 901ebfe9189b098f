import type { RateLimitGuard } from '../auth/limits.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { CheckStore } from '../checks/services.ts';
import type { Principal } from '../domain/principal.ts';
import type { Route, RouteContext } from '../http/types.ts';
import type { TimelineEntry, TimelineSources } from '../incidents/timeline.ts';
import { createActionService } from './api/action-service.ts';
import { actionRoutes } from './api/routes.ts';
import { actionRunRoutes } from './api/run-routes.ts';
import { type ActionWorkerDeps, composeActionWorker } from './compose-worker.ts';
import type { ActionStore } from './items/action-store.ts';
import type { ExecutionStore } from './items/execution-store.ts';
import { stateChangeExecutionId } from './job-ids.ts';

export interface ActionsDeps extends ActionWorkerDeps {
  checks: Pick<CheckStore, 'get'>;
  /** The router's API-key authentication, for the events route that also takes a callback token. */
  authenticateKey(ctx: RouteContext): Promise<Principal>;
  /** The rate-limit steps of callback tokens (failed attempts, writes per execution and tenant). */
  limits: Pick<RateLimitGuard, 'attempt' | 'admitCallback'>;
  tenants: Pick<TenantStore, 'getTenant'>;
}

/**
 * lib/actions' part of an incident's timeline: the executions its transitions fired (state_change
 * actions), found by the ids derived from each transition and action (./job-ids.ts).
 */
function incidentRuns(
  actions: Pick<ActionStore, 'listForCheck'>,
  executions: Pick<ExecutionStore, 'get'>,
): TimelineSources['actionRuns'] {
  return async (tenantId, transitions) => {
    const byCheck = new Map<string, Awaited<ReturnType<ActionStore['listForCheck']>>>();
    for (const checkId of new Set(transitions.map((t) => t.check_id)))
      byCheck.set(checkId, await actions.listForCheck(checkId));
    const ids = transitions.flatMap((t) =>
      (byCheck.get(t.check_id) ?? [])
        .filter((a) => a.tenant_id === tenantId)
        .map((a) => stateChangeExecutionId(Date.parse(t.created_at), t.id, a.id)),
    );
    const found = await Promise.all(ids.map((id) => executions.get(id)));
    return found.flatMap((e): TimelineEntry[] =>
      e && e.tenant_id === tenantId
        ? [
            {
              type: 'action',
              at: e.created_at,
              execution_id: e.id,
              action_id: e.action_id,
              dispatch_status: e.dispatch_status,
              status_code: e.status_code,
            },
          ]
        : [],
    );
  };
}

/** The actions feature as the app composes it: stores, the runner, the worker, its routes and its part of incident timelines. */
export function composeActions(deps: ActionsDeps) {
  const { clock, config } = deps;
  const services = composeActionWorker(deps);
  const { actions, executions, actionRunner } = services;
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
  return { ...services, routes, incidentRuns: incidentRuns(actions, executions) };
}
