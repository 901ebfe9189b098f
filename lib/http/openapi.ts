import * as z from 'zod';
import { defineRoute } from './define-route.ts';
import {
  documentedShape,
  ERROR_STATUS,
  type ErrorCode,
  errorBodySchema,
  type ResponseSchema,
  type RouteSchemas,
} from './route-schemas.ts';
import { deniesReadOnly, ok, type PublicRoute, type Route } from './types.ts';

/**
 * The OpenAPI 3.1 document of the API, built from the route table: every operation's parameters,
 * request body and responses come from the zod schemas its route parses with (z.toJSONSchema), so
 * the document describes what the code does.
 */

type JsonSchema = Record<string, unknown>;
type Components = Record<string, JsonSchema>;

const jsonSchema = z.record(z.string(), z.unknown());
const convertedSchema = z.looseObject({ $defs: z.record(z.string(), jsonSchema).optional() });
const objectSchema = z.object({
  properties: z.record(z.string(), jsonSchema).default({}),
  required: z.array(z.string()).default([]),
});

const COMPONENT_REF = '#/components/schemas/';
const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Found: a redirect to `Location`',
  304: 'Not modified: the copy whose `ETag` `If-None-Match` names is current',
};

const requiredIn = z.array(z.object({ required: z.array(z.string()).optional() }).loose());

/**
 * A zod discriminated union becomes a `oneOf` with OpenAPI's `discriminator`, so generators and
 * validators pick the alternative by its tag (a check's `check_type`, a channel's `channel_type`).
 * Not where one alternative may leave the tag out (a new action's trigger_type defaults to
 * manual): OpenAPI's discriminator must be present in every alternative.
 */
const withDiscriminator: NonNullable<Parameters<typeof z.toJSONSchema>[1]>['override'] = (ctx) => {
  const def = ctx.zodSchema._zod.def;
  if (def.type !== 'union' || !('discriminator' in def) || typeof def.discriminator !== 'string') return;
  const propertyName = def.discriminator;
  const options = requiredIn.safeParse(ctx.jsonSchema.oneOf);
  if (options.success && options.data.every((option) => option.required?.includes(propertyName)))
    ctx.jsonSchema.discriminator = { propertyName };
};

/**
 * The JSON Schema of `schema`. Schemas carrying a `meta({ id })` become components: zod emits
 * them as `$defs`, which move to `components.schemas` (the same id must always mean the same schema).
 */
function toJsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Components): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: withDiscriminator,
  });
  const rewritten = convertedSchema.parse(
    JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', `"${COMPONENT_REF}`)),
  );
  const { $schema: _schema, $defs, ...rest } = rewritten;
  for (const [id, def] of Object.entries($defs ?? {})) {
    const known = components[id];
    if (known && JSON.stringify(known) !== JSON.stringify(def))
      throw new Error(`OpenAPI component ${id} has two different shapes`);
    components[id] = def;
  }
  return rest;
}

function parameters(route: Route, components: Components): JsonSchema[] {
  const { params, query, headers } = route.schemas;
  const list: JsonSchema[] = [];
  const add = (where: 'path' | 'query' | 'header', schema: z.ZodObject | undefined) => {
    if (!schema) return;
    const json = objectSchema.parse(toJsonSchema(schema, 'input', components));
    const required = new Set(json.required);
    for (const [name, property] of Object.entries(json.properties)) {
      const { description, ...propertySchema } = property;
      list.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: propertySchema,
      });
    }
  };
  add('path', params);
  add('query', query);
  add('header', headers);
  return list;
}

function requestBody(route: Route, components: Components): JsonSchema | undefined {
  if (route.body === 'raw' && route.schemas.rawBody) {
    const { contentType, schema } = route.schemas.rawBody;
    return {
      required: true,
      content: { [contentType]: { schema: toJsonSchema(schema, 'input', components) } },
    };
  }
  if (route.body === 'raw') {
    return {
      description: 'Any content type and body; never parsed',
      required: false,
      content: { '*/*': { schema: {} } },
    };
  }
  const { body } = route.schemas;
  if (!body) return undefined;
  // What an absent body stands for is the server's business (`required: false` says it may be
  // left out); a top-level default would be an example that must itself be valid, and `{}` is not
  // where the body needs a field (Spectral: oas3-valid-schema-example).
  const { default: _absent, ...schema } = toJsonSchema(documentedShape(body), 'input', components);
  return {
    required: !body.safeParse(undefined).success,
    content: { 'application/json': { schema } },
  };
}

function successResponse(
  status: string,
  response: ResponseSchema,
  components: Components,
  headers: RouteSchemas['responseHeaders'],
): JsonSchema {
  const description = SUCCESS_DESCRIPTIONS[status] ?? 'Success';
  const described = headers ? { description, headers } : { description };
  if (response === null) return described;
  const [contentType, schema, also] =
    response instanceof z.ZodType
      ? ['application/json', response, {}]
      : [response.contentType, response.schema, response.also ?? {}];
  const content: Record<string, JsonSchema> = {};
  for (const [type, body] of Object.entries({ [contentType]: schema, ...also }))
    content[type] = { schema: toJsonSchema(body, 'output', components) };
  return { ...described, content };
}

/** The error codes a route can answer: those of its kind (auth, params, body, query) and its own. */
export function routeErrorCodes(route: Route): ErrorCode[] {
  const { schemas } = route;
  const codes = new Set<ErrorCode>(schemas.errors ?? []);
  if (schemas.body || schemas.query || schemas.headers) codes.add('VALIDATION_ERROR');
  if (schemas.body || route.body === 'raw') codes.add('PAYLOAD_TOO_LARGE');
  if (schemas.params) codes.add('NOT_FOUND');
  if (route.auth === 'key') {
    for (const code of ['UNAUTHORIZED', 'ACCOUNT_DISABLED', 'RATE_LIMITED'] as const) codes.add(code);
    if (deniesReadOnly(route)) codes.add('READ_ONLY');
    if (route.role === 'admin') codes.add('FORBIDDEN');
  }
  if (route.auth === 'location')
    for (const code of ['UNAUTHORIZED', 'ACCOUNT_DISABLED', 'RATE_LIMITED'] as const) codes.add(code);
  // Keyless routes are limited per address, or by the credential their handler checks.
  if (route.auth === 'none' && route.limit !== 'none') codes.add('RATE_LIMITED');
  codes.add('INTERNAL');
  return [...codes];
}

const ERROR_HEADERS: Record<number, JsonSchema> = {
  401: { 'WWW-Authenticate': { schema: { type: 'string', const: 'Bearer' } } },
  429: {
    'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 0 } },
  },
};

/**
 * The route's error answers by status: the `{error, code}` envelope of its codes, and the bodies
 * it declares in `otherErrors` (either one where a status has both).
 */
function errorResponses(route: Route, components: Components): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrorCodes(route)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const other = route.schemas.otherErrors ?? {};
  const statuses = new Set([...byStatus.keys(), ...Object.keys(other).map(Number)]);
  const responses: Record<string, JsonSchema> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const codes = byStatus.get(status) ?? [];
    const extra = other[status];
    const envelope = { $ref: `${COMPONENT_REF}Error` };
    const own = extra ? toJsonSchema(extra.schema, 'output', components) : undefined;
    const type = extra?.contentType ?? 'application/json';
    // Another media type (an HTML 404 page, a badge) is its own content entry beside the envelope's.
    const content =
      own && type !== 'application/json'
        ? {
            ...(codes.length > 0 ? { 'application/json': { schema: envelope } } : {}),
            [type]: { schema: own },
          }
        : { [type]: { schema: own ? (codes.length > 0 ? { anyOf: [envelope, own] } : own) : envelope } };
    responses[String(status)] = {
      description: [codes.join(', '), extra?.description].filter(Boolean).join('; '),
      ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
      content,
    };
  }
  return responses;
}

/** The credential a route takes: an API key, a location key (the agent protocol), or none. */
function routeSecurity(route: Route): Array<Record<string, []>> {
  if (route.auth === 'location') return [{ locationKey: [] }];
  return route.auth === 'key' || route.schemas.checksKey ? [{ bearerAuth: [] }] : [];
}

function operation(route: Route, components: Components): JsonSchema {
  const params = parameters(route, components);
  const body = requestBody(route, components);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(route.schemas.responses)) {
    if (response !== undefined)
      responses[status] = successResponse(status, response, components, route.schemas.responseHeaders);
  }
  return {
    operationId: route.operationId,
    ...(route.summary ? { summary: route.summary } : {}),
    tags: [route.tag],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...responses, ...errorResponses(route, components) },
    security: routeSecurity(route),
  };
}

/** The OpenAPI 3.1 document describing every route of `routes`. */
export function buildOpenApiDocument(routes: readonly Route[]): JsonSchema {
  const components: Components = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation(route, components);
    paths[route.path] = item;
  }
  components.Error = toJsonSchema(errorBodySchema, 'output', components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigil API',
      version: '1',
      description: 'Generated from the route table; conventions and error codes in docs/api.md.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    // Relative: paths resolve against wherever the document was fetched from (a local runtime, an
    // API Gateway stage, a function URL), so one document serves every deployment.
    servers: [{ url: '/', description: 'The origin this document was fetched from' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: vgl_ + 32 base62 characters + a 6-character checksum',
        },
        locationKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A location key (the agent protocol, /v1/agent/*): vlk_ + 40 base62 characters',
        },
      },
    },
  };
}

/** GET /v1/openapi.json (no key): the document of `routes()`, built once on first request. */
export function openApiRoute(routes: () => readonly Route[]): PublicRoute {
  let document: JsonSchema | undefined;
  return defineRoute({
    method: 'GET',
    path: '/v1/openapi.json',
    auth: 'none',
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document, generated from the route table',
    schemas: { responses: { 200: z.record(z.string(), z.unknown()) } },
    handler: async () => {
      document ??= buildOpenApiDocument(routes());
      return ok(document);
    },
  });
}
