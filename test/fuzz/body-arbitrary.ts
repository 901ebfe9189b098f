import fc from 'fast-check';
import { arbitraryFromJsonSchema, type Hints, type JsonSchema } from './json-schema-arbitrary.ts';
import type { FuzzWorld } from './request-arbitrary.ts';

/** A generated request body: its bytes (none: no body) and what it was meant to be. */
export interface FuzzBody {
  bytes?: Buffer;
  note: string;
}

const RESERVED = ['__proto__', 'constructor', 'prototype'] as const;

/** Property values that reach past validation: the fixtures' ids, URLs, probe configs, addresses. */
function bodyHints(world: FuzzWorld): Hints {
  const entityIds = fc.constantFrom(
    world.owner.ids.entityId,
    world.owner.ids.otherEntityId,
    world.other.ids.entityId,
  );
  const host = fc.oneof(fc.domain(), fc.constantFrom('127.0.0.1', 'localhost', '::1', '169.254.169.254'));
  return {
    entity_id: entityIds,
    from_entity_id: entityIds,
    to_entity_id: entityIds,
    // Live checks to anywhere: the scheduler is off, so none of them is ever probed (asserted).
    target_url: fc.oneof(
      fc.webUrl(),
      fc.constantFrom(
        'http://127.0.0.1:9/',
        'https://localhost:1/x',
        'ftp://x/',
        'http://[::1]/',
        'http://169.254.169.254/',
      ),
    ),
    config: fc.oneof(
      fc.record({ host, port: fc.integer({ min: 0, max: 70_000 }) }),
      fc.record({
        hostname: host,
        record_type: fc.constantFrom('A', 'AAAA', 'MX', 'TXT', 'CNAME', 'SRV', 'X'),
      }),
      fc.record({ host, servername: host }, { requiredKeys: ['host'] }),
    ),
    email: fc.emailAddress(),
    checked_at: fc.oneof(
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.constantFrom(
        '2026-11-22T08:43:00+01:00',
        '2026-11-22T08:43:00Z',
        '1970-01-01T00:00:00.000Z',
        '9999-12-31T23:59:59.999Z',
      ),
    ),
    slug: fc.constantFrom(world.owner.ids.blueprint, 'fixture-a', 'fixture-b', 'x', 'a'.repeat(63)),
    token: fc.constantFrom('vgi_x', ''),
  };
}

/** A check of each type with the fields that type takes, on an entity of either tenant. */
function checkBodyArbitrary(world: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  const hints = bodyHints(world);
  const common = {
    entity_id: hints.entity_id as fc.Arbitrary<string>,
    interval_seconds: fc.integer({ min: 1, max: 86_400 }),
  };
  const host = fc.oneof(fc.domain(), fc.constantFrom('127.0.0.1', 'localhost'));
  return fc.oneof(
    fc.record({
      ...common,
      check_type: fc.constant('http'),
      target_url: hints.target_url as fc.Arbitrary<string>,
    }),
    fc.record({
      ...common,
      check_type: fc.constant('tcp'),
      config: fc.record({ host, port: fc.integer({ min: 1, max: 65_535 }) }),
    }),
    fc.record({ ...common, check_type: fc.constant('tls'), config: fc.record({ host }) }),
    fc.record({
      ...common,
      check_type: fc.constant('dns'),
      config: fc.record({ hostname: fc.domain(), record_type: fc.constantFrom('A', 'AAAA', 'MX', 'TXT') }),
    }),
    fc.record({ ...common, check_type: fc.constant('push') }),
  );
}

/** Values of the wrong type or at the edges of JSON numbers. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom(
    1e300,
    -1e300,
    5e-324,
    -0,
    Number.MAX_VALUE,
    'NaN',
    'Infinity',
    '-1',
    '',
    ' ',
    null,
    true,
    [],
    {},
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

/** Raw bytes that are not the JSON the route wants (or not JSON at all). */
function rawArbitrary(validText: fc.Arbitrary<string>): fc.Arbitrary<FuzzBody> {
  const text = (note: string) => (s: string) => ({ bytes: Buffer.from(s), note });
  return fc.oneof(
    fc
      .constantFrom(
        'null',
        'true',
        '0',
        '[]',
        '{}',
        '""',
        '\ufeff{}',
        '{"a":1}garbage',
        'NaN',
        '1e999',
        '{"a":1e309}',
        '-',
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
        '{"a":1,"a":2}',
        '"\\ud800"',
        ' \n\t ',
      )
      .map(text('raw constant')),
    fc.uint8Array({ maxLength: 300 }).map((b) => ({ bytes: Buffer.from(b), note: 'raw bytes' })),
    fc.string({ maxLength: 100, unit: 'binary' }).map(text('raw text')),
    fc
      .tuple(validText, fc.nat())
      .map(([s, n]) => ({ bytes: Buffer.from(s.slice(0, n % (s.length + 1))), note: 'truncated JSON' })),
    fc.constant({ bytes: Buffer.from('{}', 'utf16le'), note: 'UTF-16 JSON' }),
  );
}

/** JSON text with `value` at key `key` of `base`, `inner` spliced in as raw text when given (deep or huge values). */
function withKey(base: unknown, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> =
    typeof base === 'object' && base !== null && !Array.isArray(base) ? { ...base } : {};
  // defineProperty: an own `__proto__` key, as JSON.parse makes one; assignment would set the prototype.
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

/** How often each bent body is drawn: odd value, reserved key, unknown keys, deep, wide, huge (the costly ones rarer). */
const BENT_WEIGHTS = [4, 3, 3, 2, 1, 1];

const SENTINEL = '\u0000fuzz-splice\u0000';

function splice(base: unknown, key: string, rawValue: string): Buffer {
  return Buffer.from(
    JSON.stringify(withKey(base, key, SENTINEL)).replace(JSON.stringify(SENTINEL), rawValue),
  );
}

function deepText(depth: number, arrays: boolean): string {
  return arrays
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * Bodies for a route: mostly valid-ish ones derived from its JSON schema (then bent: wrong types,
 * reserved keys, unknown keys, deep nesting, huge strings), and raw ones that are not JSON, empty,
 * or over the size limit.
 */
export function bodyArbitrary(
  schema: JsonSchema | undefined,
  world: FuzzWorld,
  options: { bodyless: boolean; maxBytes: number },
): fc.Arbitrary<FuzzBody> {
  const fromSchema = schema ? arbitraryFromJsonSchema(schema, bodyHints(world)) : fc.constant({});
  // The schema cannot say which fields go with which check type: well-formed checks of every type too.
  const valid = schema?.properties?.check_type ? fc.oneof(fromSchema, checkBodyArbitrary(world)) : fromSchema;
  const names = Object.keys(schema?.properties ?? {});
  const maps = names.filter((n) => {
    const p = schema?.properties?.[n];
    return p?.type === 'object' && p.properties === undefined;
  });
  const strings = names.filter((n) => schema?.properties?.[n]?.type === 'string');
  const anyName = names.length > 0 ? fc.constantFrom(...names) : fc.string({ maxLength: 10 });
  const json = (note: string) => (v: unknown) => ({ bytes: Buffer.from(JSON.stringify(v) ?? 'null'), note });

  const bent: fc.Arbitrary<FuzzBody>[] = [
    fc.tuple(valid, anyName, oddValue).map(([v, k, odd]) => json(`${k}: odd value`)(withKey(v, k, odd))),
    fc
      .tuple(valid, fc.constantFrom(...RESERVED), fc.jsonValue({ maxDepth: 1 }), fc.constantFrom('', ...maps))
      .map(([v, reserved, value, map]) => {
        if (!map) return json(`reserved key ${reserved}`)(withKey(v, reserved, value));
        const inner = (v as Record<string, unknown>)[map];
        return json(`reserved key ${map}.${reserved}`)(withKey(v, map, withKey(inner, reserved, value)));
      }),
    fc
      .tuple(
        valid,
        fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), {
          minKeys: 1,
          maxKeys: 20,
        }),
      )
      .map(([v, extra]) => json('unknown keys')({ ...extra, ...(v as object) })),
    fc
      .tuple(valid, fc.integer({ min: 1, max: 12_000 }), fc.boolean(), anyName)
      .map(([v, depth, arrays, k]) => ({
        bytes: splice(v, k, deepText(depth, arrays)),
        note: `${k}: nested ${depth} deep`,
      })),
    fc.tuple(valid, fc.integer({ min: 200, max: 3000 })).map(([v, n]) => {
      const wide = Object.fromEntries(Array.from({ length: n }, (_, i) => [`unknown_field_${i}`, i]));
      return json(`${n} unknown keys`)({ ...wide, ...(v as object) });
    }),
  ];
  if (strings.length > 0) {
    // Huge values only in plain string properties: stored field values are item 4's own test.
    bent.push(
      fc
        .tuple(
          valid,
          fc.constantFrom(...strings),
          fc.integer({ min: 65_536, max: options.maxBytes - 4096 }),
          fc.constantFrom('x', 'é', '😀'),
        )
        .map(([v, k, n, ch]) => ({
          bytes: splice(v, k, JSON.stringify(ch.repeat(Math.floor(n / Buffer.byteLength(ch))))),
          note: `${k}: huge string`,
        })),
    );
  }
  const oversize = fc
    .integer({ min: options.maxBytes + 1, max: options.maxBytes + 65_536 })
    .map((n) => ({ bytes: Buffer.alloc(n, 0x20), note: `${n} bytes` }));
  const validText = valid.map((v) => JSON.stringify(v) ?? '');
  const empty = fc.constant<FuzzBody>({ note: 'no body' });
  const other = fc.oneof(
    fc.jsonValue().map(json('any JSON')),
    fc.anything().map(json('anything')),
    rawArbitrary(validText),
  );

  if (options.bodyless) {
    return fc.oneof(
      { weight: 12, arbitrary: empty },
      { weight: 2, arbitrary: other },
      { weight: 1, arbitrary: valid.map(json('valid-ish')) },
    );
  }
  return fc.oneof(
    { weight: 12, arbitrary: valid.map(json('valid-ish')) },
    {
      weight: 12,
      arbitrary: fc.oneof(...bent.map((arbitrary, i) => ({ arbitrary, weight: BENT_WEIGHTS[i] ?? 1 }))),
    },
    { weight: 5, arbitrary: other },
    { weight: 2, arbitrary: empty },
    { weight: 1, arbitrary: oversize },
  );
}
