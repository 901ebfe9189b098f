import type { Principal } from '../../domain/principal.ts';
import { ForbiddenError, NotFoundError, ReadOnlyError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { errorResponse } from '../requests/error-response.ts';
import { type AuthedRoute, deniesReadOnly, type Route, type RouteContext, type WriteSink } from '../types.ts';
import { createRouteMatcher } from './route-match.ts';
import { createWriteAudit } from './write-audit.ts';

/** One call of the API made inside the process: a route of the table, as its HTTP request would be. */
export interface InvokeCall {
  method: AuthedRoute['method'];
  /** The path with its parameters filled in and encoded: `/v1/blueprints/web/entities/api`. */
  path: string;
  query?: Record<string, string>;
  /** The JSON body, as a client would send it. */
  body?: unknown;
}

/** What the route answered: its status and JSON body (an error's `{error, code, details?}`). */
export interface InvokeAnswer {
  status: number;
  body: unknown;
}

/**
 * Who the calls are made for: the authenticated principal of the request that asked for them (a
 * configuration apply), and that request's headers, id and address, so the audit log records each
 * object's write as that caller's, via the same channel (api, console, cli).
 */
export interface InvokeCaller {
  principal: Principal;
  request: Pick<RouteContext, 'headers' | 'requestId' | 'sourceIp' | 'logger'>;
}

export type RouteInvoker = (caller: InvokeCaller, call: InvokeCall) => Promise<InvokeAnswer>;

export interface RouteInvokerDeps {
  /** The route table; read at the first call, so the table may hold routes that use the invoker. */
  routes: () => Route[];
  audit?: WriteSink;
  logger: Logger;
}

/**
 * Calls routes of the table in-process, for a caller already authenticated and admitted by the
 * router: the route's own request schemas, rules and audit entry apply exactly as over HTTP (the
 * read-only and role rules included); what is skipped is the transport, authentication and the
 * per-call rate limit (the caller of a bulk operation is charged per object instead). Only key
 * routes with JSON answers can be invoked.
 */
export function createRouteInvoker(deps: RouteInvokerDeps): RouteInvoker {
  let match: ReturnType<typeof createRouteMatcher> | undefined;
  const audited = createWriteAudit(deps.audit, deps.logger);
  return async ({ principal, request }, call) => {
    match ??= createRouteMatcher(deps.routes());
    try {
      const { route, params } = match(call.method, call.path);
      if (route.auth !== 'key') throw new NotFoundError('route');
      if (principal.readOnly && deniesReadOnly(route)) throw new ReadOnlyError();
      if (route.role === 'admin' && principal.role !== 'admin')
        throw new ForbiddenError('this requires the admin role');
      const rawBody = Buffer.from(call.body === undefined ? '' : JSON.stringify(call.body));
      const query = call.query ?? {};
      const ctx = {
        method: route.method,
        path: call.path,
        params,
        query,
        body: call.body,
        rawBody,
        headers: request.headers,
        requestId: request.requestId,
        sourceIp: request.sourceIp,
        logger: request.logger,
        principal,
      };
      const reply = await route.handler(ctx);
      if (reply instanceof Response)
        throw new Error(`${route.operationId} answers a stream; it cannot be invoked`);
      const req = { method: route.method, path: call.path, query, headers: request.headers, body: rawBody };
      await audited(reply, {
        route,
        req: { ...req, requestId: request.requestId, sourceIp: request.sourceIp },
        params,
        body: call.body,
        principal,
      });
      return { status: reply.status, body: reply.body };
    } catch (err) {
      const response = errorResponse(err, request.logger);
      return { status: response.status, body: response.body === '' ? undefined : JSON.parse(response.body) };
    }
  };
}
