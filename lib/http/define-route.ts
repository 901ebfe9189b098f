import type { z } from 'zod';
import { NotFoundError } from '../platform/errors.ts';
import { parseInput } from './requests/validation.ts';
import { type RouteSchemas, resourceNamedBy } from './route-schemas.ts';
import type {
  AuthedContext,
  AuthedRoute,
  LocationContext,
  LocationRoute,
  PublicRoute,
  Route,
  RouteContext,
} from './types.ts';

type Out<S, Otherwise> = S extends z.ZodType ? z.output<S> : Otherwise;

/** The params a handler receives for the params schema `P` (what a route helper passes on). */
export type ParsedParams<P> = Out<P, Record<string, never>>;

/** What a handler receives in place of the raw params, query and body. */
interface Parsed<S extends RouteSchemas> {
  params: ParsedParams<S['params']>;
  query: Out<S['query'], Record<string, never>>;
  body: Out<S['body'], undefined>;
}

type Typed<C, S extends RouteSchemas> = Omit<C, keyof Parsed<S>> & Parsed<S>;

type AuthedDefinition<S extends RouteSchemas> = Omit<AuthedRoute, 'handler' | 'schemas'> & {
  schemas: S;
  handler(ctx: Typed<AuthedContext, S>): ReturnType<AuthedRoute['handler']>;
};

type LocationDefinition<S extends RouteSchemas> = Omit<LocationRoute, 'handler' | 'schemas'> & {
  schemas: S;
  handler(ctx: Typed<LocationContext, S>): ReturnType<LocationRoute['handler']>;
};

type PublicDefinition<S extends RouteSchemas> = Omit<PublicRoute, 'handler' | 'schemas'> & {
  schemas: S;
  handler(ctx: Typed<RouteContext, S>): ReturnType<PublicRoute['handler']>;
};

/** Path parameters that do not parse name no resource: 404, like an id that does not exist. */
function parseParams(schema: z.ZodObject | undefined, params: Record<string, string>) {
  if (!schema) return {};
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const name = result.error.issues[0]?.path.join('.') || 'path';
  // "check not found" for a malformed check id, as for an unknown one.
  throw new NotFoundError(resourceNamedBy(schema.shape[name]) ?? name);
}

/** Declared request headers are checked (400 when they do not parse); handlers read them from `headers`. */
function parseRequest(schemas: RouteSchemas, ctx: RouteContext): Parsed<RouteSchemas> {
  if (schemas.headers) parseInput(schemas.headers, ctx.headers, 'headers');
  return {
    params: parseParams(schemas.params, ctx.params),
    // Unknown query parameters are ignored, so a route without a query schema has nothing to parse.
    query: schemas.query ? parseInput(schemas.query, ctx.query, 'query') : {},
    body: schemas.body ? parseInput(schemas.body, ctx.body) : undefined,
  };
}

/**
 * The context with its request parsed, set on the context itself (each call's own object): a copy
 * by spread would read its `logger`, a getter the router makes the request's logger in only when
 * a handler logs (lib/http/router.ts).
 */
function withParsed<C extends RouteContext>(ctx: C, parsed: Parsed<RouteSchemas>) {
  return Object.assign(ctx, parsed);
}

/**
 * A route whose handler receives its params, query and body parsed by the
 * route's own schemas (the ones the OpenAPI document shows), after the router has authenticated
 * and authorised the caller.
 */
export function defineRoute<S extends RouteSchemas>(def: AuthedDefinition<S>): AuthedRoute;
export function defineRoute<S extends RouteSchemas>(def: LocationDefinition<S>): LocationRoute;
export function defineRoute<S extends RouteSchemas>(def: PublicDefinition<S>): PublicRoute;
export function defineRoute(
  def: AuthedDefinition<RouteSchemas> | LocationDefinition<RouteSchemas> | PublicDefinition<RouteSchemas>,
): Route {
  if (def.auth === 'key') {
    const { handler, ...route } = def;
    return {
      ...route,
      handler: (ctx: AuthedContext) => handler(withParsed(ctx, parseRequest(def.schemas, ctx))),
    };
  }
  if (def.auth === 'location') {
    const { handler, ...route } = def;
    return {
      ...route,
      handler: (ctx: LocationContext) => handler(withParsed(ctx, parseRequest(def.schemas, ctx))),
    };
  }
  const { handler, ...route } = def;
  return {
    ...route,
    handler: (ctx: RouteContext) => handler(withParsed(ctx, parseRequest(def.schemas, ctx))),
  };
}
