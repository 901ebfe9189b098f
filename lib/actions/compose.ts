import type { RateLimitGuard } from '../auth/limits.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { CheckStore } from '../checks/services.ts';
import type { Principal } from '../domain/principal.ts';
import type { Route, RouteContext } from '../http/types.ts';
import { createActionService } from './action-service.ts';
import { type ActionWorkerDeps, composeActionWorker } from './compose-worker.ts';
import { actionRoutes } from './routes.ts';
import { actionRunRoutes } from './run-routes.ts';

export interface ActionsDeps extends ActionWorkerDeps {
  checks: Pick<CheckStore, 'get'>;
  /** The router's API-key authentication, for the events route that also takes a callback token. */
  authenticateKey(ctx: RouteContext): Promise<Principal>;
  /** The rate-limit steps of callback tokens (failed attempts, writes per execution and tenant). */
  limits: Pick<RateLimitGuard, 'attempt' | 'admitCallback'>;
  tenants: Pick<TenantStore, 'getTenant'>;
}

/** The actions feature as the app composes it: stores, the runner, the worker and its routes. */
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
  return { ...services, routes };
}
