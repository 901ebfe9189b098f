import type { LocationPrincipal, Principal } from '../domain/principal.ts';
import {
  ForbiddenError,
  PayloadTooLargeError,
  ReadOnlyError,
  UnauthorizedError,
} from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { credentialOfRequest } from './policies/session-cookie.ts';
import { errorResponse, jsonResponse } from './requests/error-response.ts';
import { parseJsonBody } from './requests/json-body.ts';
import { createReadGate, type ReadGate } from './routing/read-gate.ts';
import { createRouteMatcher } from './routing/route-match.ts';
import { fromWebResponse, readStream } from './routing/stream-web.ts';
import { createWriteAudit, isWrite } from './routing/write-audit.ts';
import {
  deniesReadOnly,
  type HttpRequest,
  type HttpResponse,
  type Route,
  type RouteContext,
  type RouteReply,
  type WriteSink,
} from './types.ts';

/** A request body at most, unless the route says otherwise (`maxBodyBytes`). */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * The largest body any route may take (a route's `maxBodyBytes`): Lambda's synchronous payload
 * limit. The local server reads bodies up to it; the router holds each route to its own limit.
 */
export const MAX_ROUTE_BODY_BYTES = 6 * 1024 * 1024;

export interface RouterDeps {
  routes: Route[];
  /** Resolves the Authorization header to a principal, or throws UnauthorizedError / AccountDisabledError. */
  authenticate(authorization: string | undefined): Promise<Principal>;
  /**
   * Resolves a location key (the `auth: 'location'` routes, /v1/agent/*) to its location; without
   * it those routes answer 401.
   */
  authenticateLocation?(authorization: string | undefined): Promise<LocationPrincipal>;
  /** The rate-limit steps (lib/auth/limits/rate-limit.ts): RateLimit-* headers, or a 429. */
  rateLimit: {
    /** Authentication of a key (an API key, a location key) under the limits: the principal and its headers. */
    admit<P extends { keyId: string; tenantId: string }>(
      req: HttpRequest,
      authenticate: (authorization: string | undefined) => Promise<P>,
    ): Promise<{ principal: P; headers: Record<string, string> }>;
    /** A request to a route without a key, per source address. */
    admitAddress(req: HttpRequest): Promise<Record<string, string>>;
  };
  /**
   * Cookie-authenticated writes: throws ForbiddenError unless the request proves it came from the
   * console (lib/http/policies/csrf.ts). Without it, a session may only read.
   */
  verifyCsrf?(req: HttpRequest, principal: Principal): void;
  /** Told of every write that succeeded (the audit log, lib/audit). */
  audit?: WriteSink;
  logger: Logger;
  /** The per-tenant bound on routes marked `expensive`; default READ_GATE_DEFAULTS. */
  readGate?: ReadGate;
  /**
   * A host that serves one corner of the table (a status page on its custom domain): the request
   * as the table knows it, or the answer itself for a path that host does not serve. Absent, or
   * the request given back: every route, as requested.
   */
  mapHost?(req: HttpRequest): Promise<HttpRequest | Response>;
}

/**
 * The path as logged: a ping URL's first segment, its token or (slug URLs) its ping key, is its
 * credential, so it is never written to a log; nor is a calendar feed's token (/ical/<token>.ics).
 */
function loggedPath(path: string): string {
  if (path.startsWith('/ical/')) return '/ical/{token}.ics';
  return path.startsWith('/ping/') ? path.replace(/^\/ping\/[^/]*/, '/ping/{token}') : path;
}

/** A JSON reply serialised; a web-standard Response handed on as a stream. */
function toHttpResponse(reply: RouteReply): HttpResponse {
  if (reply instanceof Response) return fromWebResponse(reply);
  return jsonResponse(reply.status, reply.body, reply.headers);
}

/**
 * The answer to a HEAD: GET's status and headers, Content-Length included, and no body. A finite
 * web Response body (a page, a badge) is read for its length; an event stream, which never ends
 * by itself, is cancelled, which ends what the route opened for it.
 */
async function withoutBody(response: HttpResponse): Promise<void> {
  const { stream } = response;
  delete response.stream;
  let length = Buffer.byteLength(response.body);
  if (stream && response.headers['content-type']?.startsWith('text/event-stream')) {
    await stream.cancel().catch(() => undefined);
    length = 0;
  } else if (stream) length = (await readStream(stream)).length;
  if (length > 0) response.headers['content-length'] ??= String(length);
  response.body = '';
}

/** The one router used by the Lambda entry and the local server: match, authenticate, authorize, dispatch. */
export function createRouter(deps: RouterDeps): { handle(req: HttpRequest): Promise<HttpResponse> } {
  const readGate = deps.readGate ?? createReadGate();

  const audited = createWriteAudit(deps.audit, deps.logger);

  const matchRoute = createRouteMatcher(deps.routes);
  const match = (req: HttpRequest) => matchRoute(req.method, req.path);

  /**
   * `limitHeaders` receives the caller's RateLimit-* headers, for every answer the limits saw (errors
   * too); `matched` the route. `requestLogger` makes the request's logger when first asked: most
   * requests log nothing but their one line, and a child logger per request was a measurable part
   * of a push result's CPU (issue 78).
   */
  const dispatch = async (
    req: HttpRequest,
    requestLogger: () => Logger,
    limitHeaders: Record<string, string>,
    matched: { route?: string },
  ): Promise<HttpResponse> => {
    const { route, params } = match(req);
    matched.route = `${route.method} ${route.path}`;
    const bodyLimit = Math.min(route.maxBodyBytes ?? MAX_BODY_BYTES, MAX_ROUTE_BODY_BYTES);
    if (req.body.length > bodyLimit) throw new PayloadTooLargeError(bodyLimit);
    const ctxBase = {
      method: route.method,
      ...(req.method !== route.method ? { requestMethod: req.method } : {}),
      path: req.path,
      params,
      query: req.query,
      rawBody: req.body,
      headers: req.headers,
      requestId: req.requestId,
      sourceIp: req.sourceIp,
      platformHost: req.platformHost,
    };
    if (route.auth === 'none') {
      const limit = route.limit ?? 'address';
      if (limit === 'address') Object.assign(limitHeaders, await deps.rateLimit.admitAddress(req));
      // A handler that authenticates reads its body itself, after the caller is known.
      const parseBody = route.body !== 'raw' && limit !== 'credential';
      const body = parseBody ? parseJsonBody(req.body) : undefined;
      const ctx: RouteContext = {
        ...ctxBase,
        body,
        // A getter (made when first read), never spread from ctxBase: a spread would read it.
        get logger() {
          return requestLogger();
        },
      };
      const reply = await route.handler(ctx);
      await audited(reply, { route, req, params, body });
      return toHttpResponse(reply);
    }
    if (route.auth === 'location') {
      const authenticateLocation =
        deps.authenticateLocation ??
        (async () => {
          throw new UnauthorizedError('missing or invalid location key');
        });
      const { principal: location, headers } = await deps.rateLimit.admit(req, authenticateLocation);
      Object.assign(limitHeaders, headers);
      const body = route.body === 'raw' ? undefined : parseJsonBody(req.body);
      let child: Logger | undefined;
      const reply = await route.handler({
        ...ctxBase,
        body,
        location,
        get logger() {
          child ??= requestLogger().child({ tenant_id: location.tenantId, location_id: location.locationId });
          return child;
        },
      });
      await audited(reply, { route, req, params, body, location });
      return toHttpResponse(reply);
    }
    // The console's session cookie stands in for a missing Authorization header (lib/http/policies/session-cookie.ts).
    const credential = credentialOfRequest(req.headers);
    const authReq =
      credential === req.headers.authorization
        ? req
        : { ...req, headers: { ...req.headers, authorization: credential as string } };
    const { principal, headers } = await deps.rateLimit.admit(authReq, deps.authenticate);
    Object.assign(limitHeaders, headers);
    if (principal.credential === 'session' && isWrite(req.method)) {
      if (!deps.verifyCsrf) throw new ForbiddenError('signed-in writes are not enabled here');
      deps.verifyCsrf(req, principal);
    }
    // Read-only enforcement lives here and only here: every write method and the routes marked denyReadOnly.
    if (principal.readOnly && deniesReadOnly(route)) throw new ReadOnlyError();
    if (route.role === 'admin' && principal.role !== 'admin')
      throw new ForbiddenError('this requires the admin role');
    const body = route.body === 'raw' ? undefined : parseJsonBody(req.body);
    // After authentication and the limits, so a refused or unknown caller never takes a slot.
    const release = route.expensive ? await readGate.acquire(principal.tenantId) : undefined;
    try {
      let child: Logger | undefined;
      const reply = await route.handler({
        ...ctxBase,
        body,
        principal,
        get logger() {
          child ??= requestLogger().child({ tenant_id: principal.tenantId, key_id: principal.keyId });
          return child;
        },
      });
      await audited(reply, { route, req, params, body, principal });
      return toHttpResponse(reply);
    } finally {
      release?.();
    }
  };

  return {
    async handle(req) {
      let logger: Logger | undefined;
      const requestLogger = () => {
        logger ??= deps.logger.child({ request_id: req.requestId });
        return logger;
      };
      const started = Date.now();
      let response: HttpResponse;
      const limitHeaders: Record<string, string> = {};
      const matched: { route?: string } = {};
      try {
        const routed = deps.mapHost ? await deps.mapHost(req) : req;
        response =
          routed instanceof Response
            ? fromWebResponse(routed)
            : await dispatch(routed, requestLogger, limitHeaders, matched);
      } catch (err) {
        response = errorResponse(err, requestLogger());
      }
      if (req.method === 'HEAD') await withoutBody(response).catch(() => undefined);
      if (matched.route) response.route = matched.route;
      Object.assign(response.headers, limitHeaders);
      response.headers['x-request-id'] = req.requestId;
      // The request's line, as its logger would write it (request_id first after the base fields).
      (logger ?? deps.logger).info('request', {
        ...(logger ? {} : { request_id: req.requestId }),
        method: req.method,
        path: loggedPath(req.path),
        status: response.status,
        duration_ms: Date.now() - started,
      });
      return response;
    },
  };
}

// What other folders take of the router's parts (routing/ is private): the route invoker and the streams.
export type { InvokeAnswer, InvokeCall, InvokeCaller, RouteInvoker } from './routing/route-invoker.ts';
export { createRouteInvoker } from './routing/route-invoker.ts';
export type { SseFrame, SseSink } from './routing/stream-sse.ts';
export { SSE_HEADERS, sseStream, untilAborted } from './routing/stream-sse.ts';
export { readStream, webRequest } from './routing/stream-web.ts';
