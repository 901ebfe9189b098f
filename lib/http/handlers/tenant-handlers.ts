import type * as z from 'zod';
import type { Principal } from '../../domain/principal.ts';
import { defineRoute, type ParsedParams } from '../define-route.ts';
import type { ErrorCode, RouteSchemas } from '../route-schemas.ts';
import { type AuthedContext, type AuthedRoute, created, noContent, ok, type Reply } from '../types.ts';

/** One service call for the caller's tenant, given the route's parsed request. */
type TenantCall<C, R> = (tenantId: string, ctx: C) => Promise<R>;

/**
 * The handler plumbing key routes share: call the feature's service with the caller's tenant and
 * the parsed request, and answer 200 with what it returns.
 */
export function answerOk<C extends { principal: Principal }>(call: TenantCall<C, unknown>) {
  return async (ctx: C): Promise<Reply> => ok(await call(ctx.principal.tenantId, ctx));
}

/** As answerOk, answering 201 with what the call created. */
export function answerCreated<C extends { principal: Principal }>(call: TenantCall<C, unknown>) {
  return async (ctx: C): Promise<Reply> => created(await call(ctx.principal.tenantId, ctx));
}

/** As answerOk, answering 204 once the call is done (a delete). */
function answerNoContent<C extends { principal: Principal }>(call: TenantCall<C, unknown>) {
  return async (ctx: C): Promise<Reply> => {
    await call(ctx.principal.tenantId, ctx);
    return noContent();
  };
}

/** What a route helper below leaves to its route: the rest of defineRoute's fields and its own errors. */
type TenantRouteDef = Omit<AuthedRoute, 'method' | 'auth' | 'body' | 'schemas' | 'handler'> & {
  errors?: readonly ErrorCode[];
};

/** The parsed request a helper's call gets: the caller, the path's params and `more` (body or query). */
type ParsedCall<P, More> = { principal: Principal; params: ParsedParams<P> } & More;

/**
 * The route a helper below builds: its method, schemas and handler over the rest of the route.
 * defineRoute parses the request by exactly these schemas before the handler runs.
 */
function tenantRoute(
  method: AuthedRoute['method'],
  route: Omit<TenantRouteDef, 'errors'>,
  schemas: RouteSchemas,
  handler: (ctx: AuthedContext & { params: unknown; query: unknown; body: unknown }) => Promise<Reply>,
): AuthedRoute {
  return defineRoute({ method, ...route, auth: 'key', schemas, handler });
}

/**
 * DELETE of one item of the caller's tenant, named by the path's params: its owner's `remove`, then
 * 204. The route declares the rest (path, names, role) as defineRoute takes them.
 */
export function deleteRoute<P extends z.ZodObject>(
  def: TenantRouteDef & {
    params: P;
    remove: (tenantId: string, params: ParsedParams<P>) => Promise<unknown>;
  },
): AuthedRoute {
  const { params, errors, remove, ...route } = def;
  return tenantRoute(
    'DELETE',
    route,
    { params, responses: { 204: null }, ...(errors && { errors }) },
    answerNoContent((tenantId, ctx) => remove(tenantId, ctx.params as ParsedParams<P>)),
  );
}

/**
 * POST that creates something for the caller's tenant (a JSON body): its owner's `create`, given
 * the parsed path params and body, then 201 with what it returns. The route declares the rest
 * (path, names, role) as defineRoute takes them.
 */
export function createRoute<B extends z.ZodType, P extends z.ZodObject | undefined = undefined>(
  def: TenantRouteDef & {
    params?: P;
    body: B;
    response: z.ZodType;
    create: TenantCall<ParsedCall<P, { body: z.output<B> }>, unknown>;
  },
): AuthedRoute {
  const { params, body, response, errors, create, ...route } = def;
  return tenantRoute(
    'POST',
    route,
    { ...(params && { params }), body, responses: { 201: response }, ...(errors && { errors }) },
    answerCreated((tenantId, ctx) =>
      create(tenantId, {
        principal: ctx.principal,
        params: ctx.params as ParsedParams<P>,
        body: ctx.body as z.output<B>,
      }),
    ),
  );
}

/**
 * GET of what the caller's tenant has, named by the path's params and the query: its owner's
 * `read`, then 200 with what it returns. The route declares the rest as defineRoute takes them.
 */
export function readRoute<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
>(
  def: TenantRouteDef & {
    params?: P;
    query?: Q;
    response: z.ZodType;
    read: TenantCall<ParsedCall<P, { query: ParsedParams<Q> }>, unknown>;
  },
): AuthedRoute {
  const { params, query, response, errors, read, ...route } = def;
  return tenantRoute(
    'GET',
    route,
    {
      ...(params && { params }),
      ...(query && { query }),
      responses: { 200: response },
      ...(errors && { errors }),
    },
    answerOk((tenantId, ctx) =>
      read(tenantId, {
        principal: ctx.principal,
        params: ctx.params as ParsedParams<P>,
        query: ctx.query as ParsedParams<Q>,
      }),
    ),
  );
}
