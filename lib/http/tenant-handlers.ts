import type * as z from 'zod';
import type { Principal } from '../domain/principal.ts';
import { defineRoute, type ParsedParams } from './define-route.ts';
import type { ErrorCode } from './route-schemas.ts';
import { type AuthedRoute, created, noContent, ok, type Reply } from './types.ts';

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

/**
 * DELETE of one item of the caller's tenant, named by the path's params: its owner's `remove`, then
 * 204. The route declares the rest (path, names, role) as defineRoute takes them.
 */
export function deleteRoute<P extends z.ZodObject>(
  def: Omit<AuthedRoute, 'method' | 'auth' | 'schemas' | 'handler'> & {
    params: P;
    errors?: readonly ErrorCode[];
    remove: (tenantId: string, params: ParsedParams<P>) => Promise<unknown>;
  },
): AuthedRoute {
  const { params, errors, remove, ...route } = def;
  return defineRoute({
    method: 'DELETE',
    ...route,
    auth: 'key',
    schemas: { params, responses: { 204: null }, ...(errors && { errors }) },
    handler: answerNoContent((tenantId, ctx) => remove(tenantId, ctx.params)),
  });
}

/**
 * POST that creates something for the caller's tenant (a JSON body): its owner's `create`, given
 * the parsed path params and body, then 201 with what it returns. The route declares the rest
 * (path, names, role) as defineRoute takes them.
 */
export function createRoute<B extends z.ZodType, P extends z.ZodObject | undefined = undefined>(
  def: Omit<AuthedRoute, 'method' | 'auth' | 'body' | 'schemas' | 'handler'> & {
    params?: P;
    body: B;
    response: z.ZodType;
    errors?: readonly ErrorCode[];
    create: TenantCall<{ principal: Principal; params: ParsedParams<P>; body: z.output<B> }, unknown>;
  },
): AuthedRoute {
  const { params, body, response, errors, create, ...route } = def;
  return defineRoute({
    method: 'POST',
    ...route,
    auth: 'key',
    schemas: { ...(params && { params }), body, responses: { 201: response }, ...(errors && { errors }) },
    // defineRoute has parsed them by exactly these schemas; TypeScript cannot follow the optional params.
    handler: answerCreated((tenantId, ctx) =>
      create(tenantId, {
        principal: ctx.principal,
        params: ctx.params as ParsedParams<P>,
        body: ctx.body as z.output<B>,
      }),
    ),
  });
}
