import type { Principal } from '../domain/principal.ts';
import { created, noContent, ok, type Reply } from './types.ts';

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
export function answerNoContent<C extends { principal: Principal }>(call: TenantCall<C, unknown>) {
  return async (ctx: C): Promise<Reply> => {
    await call(ctx.principal.tenantId, ctx);
    return noContent();
  };
}
