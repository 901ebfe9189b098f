import fc from 'fast-check';
import { z } from 'zod';
import { MAX_BODY_BYTES } from '../../lib/http/router.ts';
import type { Route } from '../../lib/http/types.ts';
import { paramValue, type TenantFixture } from '../security/route-fixtures.ts';
import { describeRequest } from './answer-checks.ts';
import { bodyArbitrary } from './body-arbitrary.ts';
import type { FuzzRequest } from './fuzz-client.ts';
import { arbitraryFromJsonSchema, type Hints, type JsonSchema } from './json-schema-arbitrary.ts';

/** The two tenants a fuzz run works in: the owner's keys sign most requests, the other's ids leak-test. */
export interface FuzzWorld {
  owner: TenantFixture;
  other: TenantFixture;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Every id and slug of both fixtures: right values in the wrong place. */
function allIds(world: FuzzWorld): string[] {
  return [...Object.values(world.owner.ids), ...Object.values(world.other.ids)];
}

/** Printable text for header values (node:http refuses control characters and code points above 0xff). */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c === 0x7f ? 0x20 : c)),
    maxLength,
  });

/** A path segment as sent: mostly percent-encoded; sometimes raw, so malformed escapes such as `%zz` reach the router. */
function encodeSegment(value: string, raw: boolean): string {
  if (!raw) return encodeURIComponent(value);
  return [...value].map((ch) => (/^[\x21-\x7e]$/.test(ch) ? ch : encodeURIComponent(ch))).join('');
}

function paramArbitrary(
  route: Route,
  name: string,
  world: FuzzWorld,
): fc.Arbitrary<{ value: string; note: string }> {
  const schema = route.schemas.params?.shape[name];
  const tag = (note: string) => (value: string) => ({ value, note: `${name}=${note}` });
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(paramValue(route, name, world.owner)).map(tag('own')) },
    { weight: 2, arbitrary: fc.constant(paramValue(route, name, world.other)).map(tag('other tenant')) },
    { weight: 2, arbitrary: fc.constantFrom(...allIds(world)).map(tag('wrong kind')) },
    {
      weight: 2,
      arbitrary: (schema ? arbitraryFromJsonSchema(toJsonSchema(schema)) : fc.string())
        .map(String)
        .map(tag('shaped')),
    },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map(tag('malformed')) },
    {
      weight: 1,
      arbitrary: fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).map(tag('unicode')),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 100, max: 4000 })
        .map((n) => 'a'.repeat(n))
        .map(tag('long')),
    },
  );
}

function pathArbitrary(route: Route, world: FuzzWorld): fc.Arbitrary<{ path: string; note: string }> {
  const names = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] ?? '');
  const params = fc.tuple(...names.map((n) => fc.tuple(paramArbitrary(route, n, world), fc.boolean())));
  // Now and then the path is bent past the template: another route, or none.
  const suffix = fc.oneof(
    { weight: 20, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('/', '//', '/..', '/%2e%2e', '/x') },
  );
  return fc.tuple(params, suffix).map(([values, end]) => {
    let i = 0;
    const path = route.path.replace(/\{[a-z_]+\}/g, () => {
      const [p, raw] = values[i++] ?? [{ value: '', note: '' }, false];
      return encodeSegment(p.value, raw);
    });
    return { path: path + end, note: values.map(([p, raw]) => `${p.note}${raw ? ' (raw)' : ''}`).join(', ') };
  });
}

/** A cursor shaped like the stored ones (base64 of table keys), pointing anywhere. */
function cursorArbitrary(world: FuzzWorld): fc.Arbitrary<string> {
  const pk = fc.constantFrom(
    `CHECK#${world.owner.ids.check}`,
    `CHECK#${world.other.ids.check}`,
    'TENANT#x',
    '',
  );
  const keys = fc.record({ pk, sk: fc.string({ maxLength: 40 }) }, { requiredKeys: [] });
  return fc.oneof(
    fc
      .oneof(keys, fc.jsonValue({ maxDepth: 2 }))
      .map((v) => Buffer.from(JSON.stringify(v) ?? '').toString('base64url')),
    fc.base64String({ maxLength: 200 }),
    fc.string({ maxLength: 100 }),
  );
}

function queryHints(world: FuzzWorld): Hints {
  const count = fc.oneof(
    fc.integer({ min: -5, max: 1000 }).map(String),
    fc.constantFrom('0', '1e3', '0x10', ' 5', '5.5', '', 'NaN', '99999999999999999999', '٣'),
  );
  return {
    limit: count,
    hours: count,
    buckets: count,
    cursor: cursorArbitrary(world),
    entity_id: fc.constantFrom(...allIds(world)),
  };
}

function queryArbitrary(route: Route, world: FuzzWorld): fc.Arbitrary<string> {
  const declared = route.schemas.query
    ? (arbitraryFromJsonSchema(toJsonSchema(route.schemas.query), queryHints(world)) as fc.Arbitrary<
        Record<string, unknown>
      >)
    : fc.constant({});
  const extra = fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: declared.map((q) => new URLSearchParams(q as Record<string, string>).toString()),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(declared, extra)
        .map(([q, e]) => new URLSearchParams({ ...e, ...(q as Record<string, string>) }).toString()),
    },
    { weight: 1, arbitrary: fc.constantFrom('%zz=1', 'limit=%', 'a&&b==c', 'limit=1&limit=2', 'cursor') },
  );
}

function authorizationArbitrary(world: FuzzWorld): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${world.owner.key}`) },
    { weight: 3, arbitrary: fc.constant(`Bearer ${world.owner.readOnlyKey}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${world.other.key}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Basic dXNlcjpwYXNz',
          `bearer ${world.owner.key}`,
          'Bearer vk_x',
        ),
        headerText(80).map((s) => `Bearer ${s}`),
        headerText(80),
        fc.integer({ min: 1000, max: 8000 }).map((n) => `Bearer ${'k'.repeat(n)}`),
      ),
    },
  );
}

const contentTypeArbitrary = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      'text/plain',
      'application/json; charset=utf-16',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: headerText(40) },
);

/** Header names the client must own (framing); everything else may be generated. */
const FRAMING = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade']);

function headersArbitrary(world: FuzzWorld): fc.Arbitrary<Record<string, string>> {
  const lastEventId = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.stringMatching(/^trn_[0-9A-HJKMNP-TV-Z]{26}$/) },
    { weight: 1, arbitrary: headerText(60) },
  );
  const extraName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).filter((n) => !FRAMING.has(n));
  const extra = fc.dictionary(extraName, headerText(100), { maxKeys: 3 });
  return fc
    .record({ authorization: authorizationArbitrary(world), type: contentTypeArbitrary, lastEventId, extra })
    .map(({ authorization, type, lastEventId: id, extra: more }) => {
      const headers: Record<string, string> = { ...more };
      if (authorization !== undefined) headers.authorization = authorization;
      if (type !== undefined) headers['content-type'] = type;
      if (id !== undefined) headers['last-event-id'] = id;
      return headers;
    });
}

/** Requests for one route: its path, query, headers and body generated around what it declares. */
export function requestArbitrary(route: Route, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 20, arbitrary: fc.constant(route.method) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
  );
  const body = bodyArbitrary(route.schemas.body ? toJsonSchema(route.schemas.body) : undefined, world, {
    // Routes without a body still get one now and then: the router must not care.
    bodyless: route.method === 'GET' || route.method === 'DELETE' || !route.schemas.body,
    maxBytes: MAX_BODY_BYTES,
  });
  return fc
    .record({
      method,
      path: pathArbitrary(route, world),
      query: queryArbitrary(route, world),
      headers: headersArbitrary(world),
      body,
    })
    .map(({ method: m, path, query, headers, body: b }) => {
      const req: FuzzRequest = {
        method: m,
        target: query ? `${path.path}?${query}` : path.path,
        headers,
        ...(b.bytes ? { body: b.bytes } : {}),
        note: [path.note, b.note].filter(Boolean).join('; '),
      };
      // Counterexamples print this summary, not a 1 MiB body.
      return Object.defineProperty(req, fc.toStringMethod, { value: () => describeRequest(req) });
    });
}
