import type { Actor, LocationPrincipal, Principal, Role } from '../domain/principal.ts';
import type { Logger } from '../platform/logger.ts';
import type { RouteSchemas } from './route-schemas.ts';

/** A runtime-neutral HTTP request, built by the Lambda adapter or the local server. */
export interface HttpRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/blueprints/web`. */
  path: string;
  query: Record<string, string>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
  requestId: string;
  /** The client's address as the runtime sees it (the socket's peer; API Gateway's sourceIp). */
  sourceIp?: string;
  /** Cloud: the host name the platform routed the request by (lib/lambda-http/lambda-adapter.ts); none locally. */
  platformHost?: string;
}

/**
 * A runtime-neutral HTTP response. JSON answers carry their whole `body`; a streamed answer
 * (Server-Sent Events, a web-standard `Response` a route returned) carries `stream` instead, which
 * each transport writes as it comes (the local server, a function URL) or buffers (API Gateway).
 */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** The whole body; empty when `stream` is set. */
  body: string;
  stream?: ReadableStream<Uint8Array>;
  /** The matched route, `GET /v1/checks/{id}` (none when nothing matched): the Lambda edges' trace annotation. */
  route?: string;
}

/**
 * What a write says of itself to the audit log, where the router cannot know it: who acted on a
 * route without a key (a sign-in, an accepted invitation, an OAuth token exchange), or a more
 * precise action, target or summary than the route's own.
 */
export interface AuditNote {
  tenantId?: string;
  actor?: Actor;
  action?: string;
  target?: { type: string; id: string };
  summary?: string;
  /** Leave this write out of the audit log (a probe result, a ping). */
  skip?: boolean;
}

/** What a route handler returns; the router serialises it. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Read by the audit log only; never sent. */
  audit?: AuditNote;
}

/** A write that succeeded (status below 400), as the router tells the audit log (lib/audit). */
export interface WriteEvent {
  route: Route;
  req: HttpRequest;
  params: Record<string, string>;
  /** The parsed JSON body (undefined for raw and credential-limited routes). */
  body: unknown;
  status: number;
  /** The JSON reply's body (undefined for a streamed reply). */
  replyBody: unknown;
  note?: AuditNote;
  principal?: Principal;
  location?: LocationPrincipal;
}

/** Records writes; it must not throw (the router logs and goes on if it does). */
export type WriteSink = (event: WriteEvent) => Promise<void>;

/**
 * A JSON reply, or a web-standard `Response` whose body is streamed back as it comes (Server-Sent
 * Events; a transport that speaks Request in, Response out, such as the MCP SDK's).
 */
export type RouteReply = Reply | Response;

export interface RouteContext {
  method: string;
  /** The method as sent, where it differs from the route's: HEAD on a GET route. */
  requestMethod?: string;
  /** Path without the query string, as requested. */
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  /** Parsed JSON body (routes with body 'json'), `undefined` when the body was empty. */
  body: unknown;
  rawBody: Buffer;
  headers: Record<string, string>;
  requestId: string;
  /** The client's address (HttpRequest.sourceIp): the rate limits of handlers that authenticate count by it. */
  sourceIp?: string | undefined;
  /** HttpRequest.platformHost: the Host policy accepts it (lib/http/origin-policy.ts). */
  platformHost?: string | undefined;
  logger: Logger;
}

export interface AuthedContext extends RouteContext {
  principal: Principal;
}

export interface LocationContext extends RouteContext {
  location: LocationPrincipal;
}

interface RouteBase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path template with `{param}` segments, e.g. `/v1/blueprints/{slug}`. */
  path: string;
  /** How the body is read: parsed as JSON (default), passed raw (heartbeats), or ignored. */
  body?: 'json' | 'raw';
  /**
   * The largest body the route takes, in bytes; default MAX_BODY_BYTES (1 MiB). At most
   * MAX_ROUTE_BODY_BYTES (lib/http/router.ts): a configuration document, an uploaded export.
   */
  maxBodyBytes?: number;
  /**
   * Headers of a 405 on this route's path, for an API that answers in text (the Pinging API):
   * the refusal is then `method not allowed` as text with them, not JSON.
   */
  textRefusalHeaders?: Record<string, string>;
  summary?: string;
  /** OpenAPI operationId, unique across the route table. */
  operationId: string;
  /** OpenAPI tag: the feature the route belongs to. */
  tag: string;
  /** The schemas that parse the request and document the route (lib/http/define-route.ts). */
  schemas: RouteSchemas;
}

/** A route needing an API key. Read-only keys may use GET routes unless `denyReadOnly` is set. */
export interface AuthedRoute extends RouteBase {
  auth: 'key';
  /** Deny read-only keys even on GET (key listing). */
  denyReadOnly?: boolean;
  /** A POST that writes nothing (a simulation): read-only keys may call it. */
  readsOnly?: boolean;
  /** Minimum role; default member. */
  role?: Role;
  /** A read of much of the tenant's data: bounded per tenant in flight (lib/http/routing/read-gate.ts). */
  expensive?: boolean;
  handler(ctx: AuthedContext): Promise<RouteReply>;
}

/**
 * How the callers of a route without a key are rate limited (docs/api.md "Rate limits"):
 * - `address` (default): the router limits each source address.
 * - `credential`: the handler authenticates a key or token itself, through the rate-limit guard
 *   (failed authentications per address, per-key and tenant limits), and reads its body only after
 *   that (`rawBody`; `body` is undefined), so 401 and 403 come before 400.
 * - `none`: not at all (liveness probes).
 */
type PublicRouteLimit = 'address' | 'credential' | 'none';

export interface PublicRoute extends RouteBase {
  auth: 'none';
  limit?: PublicRouteLimit;
  handler(ctx: RouteContext): Promise<RouteReply>;
}

/**
 * A route of the agent protocol (`/v1/agent/*`): only a location key (`vlk_…`) authenticates it,
 * under the same limits as API keys (failed attempts per source address, the key's own bucket,
 * its tenant's ceiling); an API key there is 401, as a location key is on every other route.
 */
export interface LocationRoute extends RouteBase {
  auth: 'location';
  handler(ctx: LocationContext): Promise<RouteReply>;
}

export type Route = AuthedRoute | PublicRoute | LocationRoute;

/** True when read-only keys get 403 READ_ONLY: every write method unless it only reads, and routes marked denyReadOnly. */
export const deniesReadOnly = (route: AuthedRoute) =>
  (route.method !== 'GET' && !route.readsOnly) || route.denyReadOnly === true;

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
