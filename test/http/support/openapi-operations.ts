import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import type { Route } from '../../../lib/http/types.ts';
import type { FuzzAnswer, FuzzRequest } from '../../fuzz/fuzz-client.ts';
import { paramValue, type TenantFixture } from '../../security/route-fixtures.ts';
import { arbitraryOf, type Hints, inlineRefs, type Schema } from './openapi-arbitrary.ts';

/** The parts of the served OpenAPI document the tester reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

interface Media {
  schema: Schema;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
  security: unknown[];
}

/** A request the document allows, and what it meant. */
export interface ValidRequest extends FuzzRequest {
  operation: string;
}

/** One schema validator per schema (the document's, refs inlined); formats are annotations (zod adds patterns). */
export function createValidators(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false, logger: false });
  const cache = new Map<string, ValidateFunction>();
  const compile = (schema: Schema): ValidateFunction => {
    const key = JSON.stringify(schema);
    let fn = cache.get(key);
    if (!fn) {
      fn = ajv.compile(inlineRefs(schema, doc.components.schemas) as Schema);
      cache.set(key, fn);
    }
    return fn;
  };
  return {
    /** Whether `value` is valid by `schema`, and ajv's first complaint when it is not. */
    check(schema: Schema, value: unknown): string | undefined {
      const fn = compile(schema);
      if (fn(value)) return undefined;
      const error = fn.errors?.[0];
      return `${error?.instancePath || '/'} ${error?.message ?? 'invalid'} ${JSON.stringify(error?.params ?? {})}`;
    },
  };
}

/** The operation the document lists for `route`. */
export function operationOf(doc: OpenApiDocument, route: Route): Operation {
  const op = doc.paths[route.path]?.[route.method.toLowerCase()];
  if (!op) throw new Error(`the document has no ${route.method} ${route.path}`);
  return op;
}

const mediaTypes = (op: Operation) => [
  ...new Set(Object.values(op.responses).flatMap((r) => Object.keys(r.content ?? {}))),
];

/**
 * Requests meant to be valid by `op`: path parameters from the fixture tenant (so requests reach
 * handlers), the query and body generated from their schemas, the fixture's key when the operation
 * is secured, Accept naming the media types it answers. A request ajv finds invalid comes out as
 * `undefined` (never sent): filtering inside fast-check could loop forever on a generator gap.
 */
export function validRequests(
  route: Route,
  doc: OpenApiDocument,
  fx: TenantFixture,
  hints: Hints,
  validators: ReturnType<typeof createValidators>,
): fc.Arbitrary<ValidRequest | undefined> {
  const op = operationOf(doc, route);
  const inline = (schema: Schema) => inlineRefs(schema, doc.components.schemas) as Schema;
  const params = op.parameters ?? [];
  const path = route.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) =>
    encodeURIComponent(paramValue(route, name, fx)),
  );
  const query = params.filter((p) => p.in === 'query');
  const headerParams = params.filter((p) => p.in === 'header');
  const optional = <T>(arb: fc.Arbitrary<T>, required: boolean) =>
    required ? arb : fc.option(arb, { nil: undefined, freq: 2 });
  const queryArb = fc.tuple(
    ...query.map((p) =>
      optional(propertyValue(p, hints, inline), p.required).map((v) => [p.name, v] as const),
    ),
  );
  const headerArb = fc.tuple(
    ...headerParams.map((p) =>
      optional(propertyValue(p, hints, inline), p.required).map((v) => [p.name, v] as const),
    ),
  );
  const body = op.requestBody;
  const [bodyType, bodyMedia] = Object.entries(body?.content ?? {})[0] ?? [];
  const bodySchema = bodyMedia?.schema;
  const bodyArb: fc.Arbitrary<unknown> = bodySchema
    ? optional(arbitraryOf(inline(bodySchema), hints), body?.required ?? false)
    : fc.constant(undefined);
  const accept = mediaTypes(op).join(', ');
  const valid = (q: readonly (readonly [string, unknown])[], b: unknown) => {
    for (const [name, value] of q) {
      const param = params.find((p) => p.name === name);
      if (value !== undefined && param && validators.check(param.schema, value) !== undefined) return false;
    }
    return b === undefined || !bodySchema || validators.check(bodySchema, b) === undefined;
  };
  return fc
    .record({ query: queryArb, headers: headerArb, body: bodyArb })
    .map(({ query: q, headers: h, body: b }) => {
      if (!valid([...q, ...h], b)) return undefined;
      const search = new URLSearchParams();
      for (const [name, value] of q) if (value !== undefined) search.set(name, String(value));
      const headers: Record<string, string> = {};
      for (const [name, value] of h) if (value !== undefined) headers[name] = String(value);
      // The agent routes take the fixture location's key, every other secured route the API key.
      const locationKey = op.security.some((s) => typeof s === 'object' && s !== null && 'locationKey' in s);
      if (op.security.length > 0) headers.authorization = `Bearer ${locationKey ? fx.locationKey : fx.key}`;
      if (accept) headers.accept = accept;
      let bytes: Buffer | undefined;
      if (b !== undefined) {
        headers['content-type'] = bodyType === '*/*' ? 'application/octet-stream' : (bodyType ?? '');
        // A form (the OAuth token endpoint) is sent as one; anything else as JSON or the string it is.
        const form = bodyType === 'application/x-www-form-urlencoded' && typeof b === 'object' && b !== null;
        bytes = Buffer.from(
          form
            ? new URLSearchParams(
                // A list is a repeated field (`components=a&components=b`), as a browser sends one.
                Object.entries(b).flatMap(([k, v]): [string, string][] =>
                  Array.isArray(v) ? v.map((item) => [k, String(item)]) : [[k, String(v)]],
                ),
              ).toString()
            : typeof b === 'string' && bodyType !== 'application/json'
              ? b
              : JSON.stringify(b),
        );
      }
      const qs = search.toString();
      const req: ValidRequest = {
        operation: `${route.method} ${route.path}`,
        method: route.method,
        target: qs ? `${path}?${qs}` : path,
        headers,
        ...(bytes ? { body: bytes } : {}),
        note: op.operationId,
      };
      return req;
    });
}

function propertyValue(
  param: Parameter,
  hints: Hints,
  inline: (schema: Schema) => Schema,
): fc.Arbitrary<unknown> {
  const only = hints.only[param.name];
  if (only) return only;
  const also = hints.also[param.name];
  const own = arbitraryOf(inline(param.schema), hints);
  return also ? fc.oneof(also, own) : own;
}

/** Why `answer` is not one of the responses `op` declares (status, media type, body); empty when it is. */
export function undeclared(
  op: Operation,
  answer: FuzzAnswer,
  validators: ReturnType<typeof createValidators>,
): string[] {
  const declared = op.responses[String(answer.status)];
  if (!declared) return [`status ${answer.status} is not declared`];
  const content = declared.content;
  const type =
    String(answer.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  if (!content) return answer.body === '' ? [] : [`a body on ${answer.status}, which declares none`];
  if (answer.body === '' && type === '') {
    // No body at all: only a declared text body may be empty (MCP's 202 for notifications).
    const text = content['text/plain'];
    return text ? (validators.check(text.schema, '') === undefined ? [] : ['an empty body']) : ['no body'];
  }
  const media = content[type];
  if (!media) return [`content type ${type || '(none)'} is not declared for ${answer.status}`];
  if (type === 'text/event-stream') return [];
  let value: unknown = answer.body;
  if (type === 'application/json') {
    try {
      value = JSON.parse(answer.body);
    } catch {
      return ['a body that is not JSON'];
    }
  }
  const problem = validators.check(media.schema, value);
  return problem ? [`body does not match the declared schema: ${problem}`] : [];
}
