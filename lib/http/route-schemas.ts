import * as z from 'zod';

/**
 * What a route declares about its wire format. The same zod schemas parse the request (in
 * defineRoute) and describe the route in the OpenAPI document (lib/http/openapi.ts), so the
 * document cannot drift from what the route accepts.
 */

/** Error codes a route can answer with (DECISIONS.md); their statuses live in ERROR_STATUS. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  ACCOUNT_DISABLED: 403,
  READ_ONLY: 403,
  FORBIDDEN: 403,
  LIMIT_EXCEEDED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  LOG_LIMIT: 409,
  INTEGRATION_DISABLED: 410,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A success response: the zod schema of its JSON body, `null` for none (204), or another media type
 * (`also`: more media types the answer may come in, such as MCP's optional event stream).
 */
export type ResponseSchema =
  | z.ZodType
  | null
  | { contentType: string; schema: z.ZodType; also?: Record<string, z.ZodType> };

/** Whether a route answers with Server-Sent Events (a body that does not end on its own). */
export function isEventStream(schemas: RouteSchemas): boolean {
  const ok = schemas.responses[200];
  return (
    typeof ok === 'object' && ok !== null && 'contentType' in ok && ok.contentType === 'text/event-stream'
  );
}

/** Path parameters, query and request headers are objects of string-valued fields. */
type StringFields = z.ZodObject;

export interface RouteSchemas {
  /** One field per `{param}` of the path; a value that does not parse answers 404 (it names nothing). */
  params?: StringFields;
  /** Query parameters; unknown ones are ignored. A value that does not parse answers 400. */
  query?: StringFields;
  /** Request headers the route reads, by lower-case name. */
  headers?: StringFields;
  /** The JSON request body (routes that read one); a body that does not parse answers 400. */
  body?: z.ZodType;
  /**
   * The body a raw route (`body: 'raw'`) expects, for the document only: never parsed by
   * defineRoute, since the route's transport checks it (the MCP SDK answers JSON-RPC errors).
   */
  rawBody?: { contentType: string; schema: z.ZodType };
  /**
   * Success responses by status (302: a redirect whose `Location` the route's responseHeaders
   * describe; 304: the copy the request's `If-None-Match` named is current).
   */
  responses: {
    200?: ResponseSchema;
    201?: ResponseSchema;
    202?: ResponseSchema;
    204?: null;
    302?: null;
    304?: null;
  };
  /** Headers of the success response, by name, as OpenAPI header objects (e.g. a paged list's Link). */
  responseHeaders?: Record<string, { description: string; schema: Record<string, unknown> }>;
  /**
   * Errors particular to the route. The ones every route of its kind can answer (401 and 429 with
   * a key, 403 READ_ONLY on writes, 400 with a body or query, 404 with path parameters, 500) are
   * added by the OpenAPI builder from the route itself.
   */
  errors?: readonly ErrorCode[];
  /**
   * Error answers whose body is not the API's `{error, code}` envelope, by status (the MCP transport
   * answers JSON-RPC error objects, a public page an HTML 404). A status that also has envelope
   * codes documents either body.
   */
  otherErrors?: Partial<Record<number, OtherError>>;
  /** A public route (auth 'none' to the router) whose handler checks the Bearer key itself (MCP). */
  checksKey?: true;
}

/** An error answer other than the envelope: JSON unless `contentType` names another media type (an HTML page, a badge). */
interface OtherError {
  description: string;
  schema: z.ZodType;
  contentType?: string;
}

/** Request-body schemas documented by a stricter shape (documentedAs). */
const documentedShapes = new WeakMap<z.ZodType, z.ZodType>();

/**
 * Documents the request body `schema` by `shape`: the same rules stated as alternatives (a
 * one-off or a recurring window) where the parser checks them in a refinement, with messages of
 * its own per field. `shape` must accept nothing `schema` refuses for a reason it states:
 * test/http/openapi-tester.test.ts sends bodies generated from the document to the server.
 */
export function documentedAs<S extends z.ZodType>(schema: S, shape: z.ZodType): S {
  documentedShapes.set(schema, shape);
  return schema;
}

/** The shape the document states for `schema` (documentedAs), or `schema` itself. */
export function documentedShape(schema: z.ZodType): z.ZodType {
  return documentedShapes.get(schema) ?? schema;
}

/** The error body of every non-2xx JSON answer. */
export const errorBodySchema = z.strictObject({
  error: z.string().meta({ description: 'A human-readable message' }),
  code: z.string().meta({ description: 'A machine-readable code such as VALIDATION_ERROR or NOT_FOUND' }),
  details: z
    .array(z.strictObject({ path: z.string(), message: z.string() }))
    .optional()
    .meta({ description: 'One entry per invalid field (VALIDATION_ERROR only)' }),
});

/**
 * An integer query parameter from `min` to `max`: on the wire a string of digits, parsed to a number
 * before the bounds are checked, and documented as what it is (`type: integer`, minimum, maximum),
 * so a client generated from the document sends a number. Anything else is refused with `message`.
 */
export function queryInteger(min: number, max: number) {
  const message = `Enter a whole number from ${min} to ${max}.`;
  return z.preprocess(
    (value) => (typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value),
    z.int({ error: message }).min(min, message).max(max, message),
  );
}

/** Crockford base32 as the ids' ULIDs use it (lib/platform/ids.ts). */
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

/** What an id prefix names, for the 404 of a path id that cannot be one (DECISIONS.md's id list). */
const RESOURCE_OF_PREFIX: Record<string, string> = {
  tnt: 'tenant',
  usr: 'team member',
  inv: 'invitation',
  key: 'API key',
  bp: 'blueprint',
  ent: 'entity',
  rel: 'relation',
  chk: 'check',
  res: 'result',
  trn: 'transition',
  ptk: 'ping URL',
  loc: 'location',
  lky: 'location key',
  ogr: 'OAuth grant',
  oar: 'authorization request',
  ses: 'session',
  icf: 'calendar feed',
  pin: 'page incident',
  sch: 'schedule',
  ovr: 'override',
  cmt: 'contact method',
  team: 'team',
  esp: 'escalation policy',
};

/** The resource each path-parameter schema names (read by defineRoute for a malformed value). */
const resourceOfId = new WeakMap<z.ZodType, string>();

/** The resource a path parameter's schema names (an id or a slug schema), if it was given one. */
export function resourceNamedBy(schema: z.ZodType | undefined): string | undefined {
  return schema ? resourceOfId.get(schema) : undefined;
}

/** Marks a path parameter's schema with the resource it names: a value that cannot be one is "<resource> not found". */
export function namesResource<S extends z.ZodType>(schema: S, resource: string): S {
  resourceOfId.set(schema, resource);
  return schema;
}

/** An id with one of the given prefixes, e.g. `chk_01J9Z3...`. */
export function idSchema(...prefixes: [string, ...string[]]) {
  const alternatives = prefixes.length === 1 ? prefixes[0] : `(?:${prefixes.join('|')})`;
  const schema = z
    .string()
    .regex(new RegExp(`^${alternatives}_${ULID}$`))
    .meta({ description: `${prefixes.map((p) => `${p}_`).join(' or ')} + a 26-character ULID` });
  return namesResource(schema, prefixes.map((p) => RESOURCE_OF_PREFIX[p] ?? p).join(' or '));
}

/** An ISO 8601 UTC time with milliseconds and `Z`, as every record carries them. */
export const timestampSchema = z.iso
  .datetime({ precision: 3 })
  .meta({ id: 'Timestamp', description: 'ISO 8601 UTC with milliseconds and Z' });
