import * as z from 'zod';
import type { RateLimitGuard } from '../../auth/limits.ts';
import type { TenantStore } from '../../auth/tenants.ts';
import type { Principal } from '../../domain/principal.ts';
import { defineRoute } from '../../http/define-route.ts';
import { answerOk, createRoute, deleteRoute } from '../../http/handlers.ts';
import { parseInput, parseJsonBody } from '../../http/requests.ts';
import type { AuthedRoute, PublicRoute, RouteContext } from '../../http/types.ts';
import type { Clock } from '../../platform/clock.ts';
import {
  AccountDisabledError,
  NotFoundError,
  ReadOnlyError,
  UnauthorizedError,
} from '../../platform/errors.ts';
import type { ExecutionRecord } from '../items/execution-items.ts';
import type { ExecutionStore } from '../items/execution-store.ts';
import { executionIdOfToken, verifyCallbackToken } from '../runs/callback-token.ts';
import type { ActionService } from './action-service.ts';
import {
  actionParams,
  createActionBody,
  eventsBody,
  executionParams,
  executionsQuery,
  updateActionBody,
} from './request-schemas.ts';
import {
  executionsPageSchema,
  publicAction,
  publicActionSchema,
  publicExecution,
  publicExecutionSchema,
  publicLogLine,
  publicLogLineSchema,
} from './responses.ts';

export interface ActionRouteDeps {
  actionService: ActionService;
  executions: ExecutionStore;
  clock: Clock;
  /**
   * The router's API-key authentication (with its rate limit) for the one route that also takes a
   * callback token: resolves the request's key to a principal or throws 401/403/429.
   */
  authenticateKey(ctx: RouteContext): Promise<Principal>;
  /** The rate-limit steps of a callback token: failed attempts per address, writes per execution and tenant. */
  limits: Pick<RateLimitGuard, 'attempt' | 'admitCallback'>;
  /** The execution's tenant: a disabled tenant's callback tokens are refused. */
  tenants: Pick<TenantStore, 'getTenant'>;
}

const tag = 'Actions';

/** The bearer value of the Authorization header, if any. */
function bearerOf(headers: Record<string, string>): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
}

const isUnauthorized = (error: unknown) => error instanceof UnauthorizedError;

/** The execution `token` (a callback token naming `tokenFor`) authorises, or 401. */
async function tokenExecution(
  deps: ActionRouteDeps,
  token: string,
  tokenFor: string,
  executionId: string,
): Promise<ExecutionRecord> {
  if (tokenFor !== executionId) throw new UnauthorizedError('this callback token is for another execution');
  const execution = await deps.executions.get(executionId);
  if (!execution || !verifyCallbackToken(token, execution, deps.clock.now()))
    throw new UnauthorizedError('invalid or expired callback token');
  return execution;
}

/**
 * Who may report events against an execution: the holder of its callback token (that execution
 * only, until the token expires: 401 otherwise, also for a token of another execution; a wrong
 * token counts as a failed authentication of the address; a disabled tenant's 403
 * ACCOUNT_DISABLED; writes limited per execution and tenant) or a writable API key of its tenant
 * (read-only 403 READ_ONLY; another tenant's execution 404). Answers the RateLimit-* headers of a
 * callback token's writes.
 */
async function writableExecution(
  deps: ActionRouteDeps,
  ctx: RouteContext,
  executionId: string,
): Promise<{ execution: ExecutionRecord; headers: Record<string, string> }> {
  const bearer = bearerOf(ctx.headers);
  const tokenFor = bearer === undefined ? undefined : executionIdOfToken(bearer);
  if (bearer !== undefined && tokenFor !== undefined) {
    const execution = await deps.limits.attempt(
      ctx,
      `vcb_${tokenFor}`,
      () => tokenExecution(deps, bearer, tokenFor, executionId),
      isUnauthorized,
    );
    const tenant = await deps.tenants.getTenant(execution.tenant_id);
    if (!tenant) throw new UnauthorizedError('invalid or expired callback token');
    if (tenant.disabled) throw new AccountDisabledError();
    return { execution, headers: await deps.limits.admitCallback(execution.id, execution.tenant_id) };
  }
  const principal = await deps.authenticateKey(ctx);
  if (principal.readOnly) throw new ReadOnlyError();
  const execution = await deps.executions.get(executionId);
  if (!execution || execution.tenant_id !== principal.tenantId) throw new NotFoundError('execution');
  return { execution, headers: {} };
}

/** The action routes: CRUD (admins write), the execution history, and the pipeline write-back. */
export function actionRoutes(deps: ActionRouteDeps): Array<AuthedRoute | PublicRoute> {
  const { actionService: service } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/actions',
      auth: 'key',
      operationId: 'listActions',
      tag,
      summary: 'The tenant’s actions (at most 50), oldest first; header values read ********',
      schemas: { responses: { 200: z.array(publicActionSchema) } },
      handler: answerOk(async (tenantId, { principal }) =>
        (await service.list(tenantId)).map((action) => publicAction(action, principal)),
      ),
    }),
    createRoute({
      path: '/v1/actions',
      role: 'admin',
      operationId: 'createAction',
      tag,
      summary:
        'Create an action (admin role; at most 50 per tenant); a URL host without placeholders must be public',
      body: createActionBody,
      response: publicActionSchema,
      errors: ['LIMIT_EXCEEDED', 'NOT_FOUND'],
      create: async (tenantId, { principal, body }) =>
        publicAction(await service.create(tenantId, body), principal),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/actions/{id}',
      auth: 'key',
      operationId: 'getAction',
      tag,
      summary: 'One action; header values read ********',
      schemas: { params: actionParams, responses: { 200: publicActionSchema } },
      handler: answerOk(async (tenantId, { principal, params }) =>
        publicAction(await service.get(tenantId, params.id), principal),
      ),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/actions/{id}',
      auth: 'key',
      role: 'admin',
      operationId: 'updateAction',
      tag,
      summary:
        'Update an action (admin role); absent fields keep their value; a header value ******** keeps the stored one',
      schemas: { params: actionParams, body: updateActionBody, responses: { 200: publicActionSchema } },
      handler: answerOk(async (tenantId, { principal, params, body }) =>
        publicAction(await service.update(tenantId, params.id, body), principal),
      ),
    }),
    deleteRoute({
      path: '/v1/actions/{id}',
      role: 'admin',
      operationId: 'deleteAction',
      tag,
      summary: 'Delete an action (admin role) and, in bounded steps after, its execution history',
      params: actionParams,
      remove: (tenantId, params) => service.remove(tenantId, params.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/actions/{id}/executions',
      auth: 'key',
      operationId: 'listActionExecutions',
      tag,
      summary: 'The action’s executions, newest first: {executions, next_cursor} (limit 1-200, default 50)',
      schemas: { params: actionParams, query: executionsQuery, responses: { 200: executionsPageSchema } },
      handler: answerOk(async (tenantId, { params, query }) => {
        const page = await service.listExecutions(tenantId, params.id, query);
        return { executions: page.executions.map(publicExecution), next_cursor: page.nextCursor };
      }),
    }),
    eventsRoute(deps),
    defineRoute({
      method: 'GET',
      path: '/v1/actions/executions/{exec_id}/logs',
      auth: 'key',
      operationId: 'listExecutionLogs',
      tag,
      summary: 'The execution’s reported log lines, in order',
      schemas: { params: executionParams, responses: { 200: z.array(publicLogLineSchema) } },
      handler: answerOk(async (tenantId, { params }) =>
        (await service.logs(tenantId, params.exec_id)).map(publicLogLine),
      ),
    }),
  ];
}

/**
 * POST /v1/actions/executions/{exec_id}/events. The handler authenticates (a key or the callback
 * token) and only then parses the body, so a caller without a valid credential learns nothing
 * from 400s; the document shows the body it parses (`eventsBody`).
 */
function eventsRoute(deps: ActionRouteDeps): PublicRoute {
  const route = defineRoute({
    method: 'POST',
    path: '/v1/actions/executions/{exec_id}/events',
    auth: 'none',
    limit: 'credential',
    operationId: 'reportExecutionEvents',
    tag,
    summary:
      'Report a pipeline status (last write wins) and/or log lines; Authorization: Bearer <API key> or the execution’s callback token',
    schemas: {
      params: executionParams,
      checksKey: true,
      responses: { 200: publicExecutionSchema },
      errors: ['UNAUTHORIZED', 'ACCOUNT_DISABLED', 'READ_ONLY', 'RATE_LIMITED', 'LOG_LIMIT'],
    },
    handler: async (ctx) => {
      const { execution, headers } = await writableExecution(deps, ctx, ctx.params.exec_id);
      const body = parseInput(eventsBody, parseJsonBody(ctx.rawBody));
      const reported = await deps.actionService.report(execution, body);
      return { status: 200, body: publicExecution(reported), headers };
    },
  });
  return { ...route, schemas: { ...route.schemas, body: eventsBody } };
}
