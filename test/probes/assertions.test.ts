import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonPath } from '../../lib/domain/assertions/assertion-syntax.ts';
import {
  assertionInputSchema,
  assertionsInputSchema,
  type HttpAssertion,
} from '../../lib/domain/http-assertions.ts';
import { type AssertedResponse, evaluateAssertions, walkJson } from '../../lib/probes/assertions.ts';

const response = (over: Partial<AssertedResponse> = {}): AssertedResponse => ({
  status: 200,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'x-build': '42',
    'set-cookie': ['a=1', 'b=2'],
  },
  body: JSON.stringify({
    status: 'ok',
    count: 3,
    items: [{ id: 'a', tags: ['x', 'y'] }, { id: 'b' }],
    none: null,
  }),
  latencyMs: 120,
  ...over,
});
const run = (a: HttpAssertion, r = response()) => evaluateAssertions([a], r);
const passes = (a: HttpAssertion, r = response()) => run(a, r) === undefined;

describe('json paths (dotted form)', () => {
  it('parses names and indexes', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.a.b[0].c')).toEqual(['a', 'b', 0, 'c']);
    expect(parseJsonPath('$.items[12][3]')).toEqual(['items', 12, 3]);
    expect(parseJsonPath('$.with-dash.$dollar._u')).toEqual(['with-dash', '$dollar', '_u']);
  });

  it('refuses what is not the dotted form', () => {
    for (const bad of [
      'a.b',
      '$.',
      '$..a',
      '$.a[*]',
      '$[?(@.a)]',
      '$.a[-1]',
      "$['a']",
      '$.1a',
      `$${'.a'.repeat(130)}`,
    ]) {
      expect(parseJsonPath(bad), bad).toBeUndefined();
    }
  });

  it('walks own properties only', () => {
    expect(walkJson({ a: [{ b: 1 }] }, ['a', 0, 'b'])).toBe(1);
    expect(walkJson({ a: 1 }, ['constructor'])).toBeUndefined();
    expect(walkJson({ a: [1] }, ['a', 1])).toBeUndefined();
    expect(walkJson({ a: { 0: 'x' } }, ['a', 0])).toBeUndefined();
    expect(walkJson([1], ['0'])).toBeUndefined();
  });
});

describe('each source and op', () => {
  it('status and latency_ms compare as numbers', () => {
    expect(passes({ source: 'status', op: 'eq', value: 200 })).toBe(true);
    expect(passes({ source: 'status', op: 'lt', value: 300 })).toBe(true);
    expect(passes({ source: 'status', op: 'gte', value: 300 })).toBe(false);
    expect(passes({ source: 'latency_ms', op: 'lte', value: 120 })).toBe(true);
    expect(run({ source: 'latency_ms', op: 'lt', value: 100 })).toBe(
      'assertion failed: latency_ms is 120, expected lt 100',
    );
  });

  it('json eq/ne, numbers and text, missing paths', () => {
    expect(passes({ source: 'json', path: '$.status', op: 'eq', value: 'ok' })).toBe(true);
    expect(run({ source: 'json', path: '$.status', op: 'eq', value: 'up' })).toBe(
      'assertion failed: $.status is "ok", expected eq "up"',
    );
    expect(passes({ source: 'json', path: '$.count', op: 'eq', value: 3 })).toBe(true);
    expect(passes({ source: 'json', path: '$.count', op: 'eq', value: '3' })).toBe(true);
    expect(passes({ source: 'json', path: '$.items[1].id', op: 'ne', value: 'a' })).toBe(true);
    expect(passes({ source: 'json', path: '$.none', op: 'eq', value: null })).toBe(true);
    expect(run({ source: 'json', path: '$.missing.deep', op: 'eq', value: 1 })).toBe(
      'assertion failed: $.missing.deep is missing, expected eq 1',
    );
    expect(passes({ source: 'json', path: '$.missing', op: 'ne', value: 1 })).toBe(true);
  });

  it('json contains: array elements, substrings', () => {
    expect(passes({ source: 'json', path: '$.items[0].tags', op: 'contains', value: 'y' })).toBe(true);
    expect(passes({ source: 'json', path: '$.items[0].tags', op: 'not_contains', value: 'z' })).toBe(true);
    expect(passes({ source: 'json', path: '$.status', op: 'contains', value: 'k' })).toBe(true);
  });

  it('json exists: null exists, a missing path does not', () => {
    expect(passes({ source: 'json', path: '$.none', op: 'exists' })).toBe(true);
    expect(passes({ source: 'json', path: '$.items[5]', op: 'exists', value: false })).toBe(true);
    expect(run({ source: 'json', path: '$.nope', op: 'exists' })).toBe(
      'assertion failed: $.nope is missing, expected to exist',
    );
  });

  it('a body that is not JSON fails json assertions in words', () => {
    expect(run({ source: 'json', path: '$.a', op: 'exists' }, response({ body: '<html>' }))).toBe(
      'assertion failed: $.a: the body is not JSON (or longer than the 64 KiB read)',
    );
  });

  it('headers: case-insensitive names, repeated values joined', () => {
    expect(passes({ source: 'header', path: 'Content-Type', op: 'contains', value: 'json' })).toBe(true);
    expect(passes({ source: 'header', path: 'x-build', op: 'gt', value: 41 })).toBe(true);
    expect(passes({ source: 'header', path: 'set-cookie', op: 'eq', value: 'a=1, b=2' })).toBe(true);
    expect(run({ source: 'header', path: 'X-Missing', op: 'exists' })).toBe(
      'assertion failed: header x-missing is missing, expected to exist',
    );
  });

  it('body contains and matches (RE2), without quoting the body back', () => {
    expect(passes({ source: 'body', op: 'contains', value: '"status":"ok"' })).toBe(true);
    expect(passes({ source: 'body', op: 'matches', value: '"count":\\d+' })).toBe(true);
    expect(run({ source: 'body', op: 'matches', value: '^<html' })).toBe(
      'assertion failed: body, expected matches "^<html"',
    );
  });

  it('ordering ops on text that is not a number fail with the reason', () => {
    expect(run({ source: 'json', path: '$.status', op: 'gt', value: 1 })).toBe(
      'assertion failed: $.status is "ok", expected gt 1 (is not a number)',
    );
  });

  it('reports the first failing assertion of several', () => {
    const message = evaluateAssertions(
      [
        { source: 'status', op: 'eq', value: 200 },
        { source: 'json', path: '$.status', op: 'eq', value: 'degraded' },
        { source: 'json', path: '$.count', op: 'eq', value: 0 },
      ],
      response(),
    );
    expect(message).toBe('assertion failed: $.status is "ok", expected eq "degraded"');
  });
});

describe('validation at the boundary', () => {
  const problem = (a: unknown) => {
    const parsed = assertionInputSchema.safeParse(a);
    return parsed.success
      ? undefined
      : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)[0];
  };

  it('accepts well-formed assertions', () => {
    expect(problem({ source: 'json', path: '$.a[0]', op: 'eq', value: 'x' })).toBeUndefined();
    expect(problem({ source: 'header', path: 'X-Build', op: 'exists' })).toBeUndefined();
    expect(problem({ source: 'body', op: 'matches', value: '^ok$' })).toBeUndefined();
    expect(problem({ source: 'latency_ms', op: 'lt', value: 500 })).toBeUndefined();
  });

  it('refuses each malformed shape with the field it names', () => {
    expect(problem({ source: 'json', op: 'exists' })).toMatch(/path: Enter a path for json assertions\./);
    expect(problem({ source: 'status', path: '$.a', op: 'eq', value: 1 })).toMatch(
      /Unrecognized key: "path"/,
    );
    expect(problem({ source: 'json', path: 'a.b', op: 'exists' })).toMatch(/path: Enter a json path/);
    expect(problem({ source: 'header', path: 'bad header', op: 'exists' })).toMatch(
      /^path: Enter a header name/,
    );
    expect(problem({ source: 'status', op: 'eq' })).toMatch(/value: Enter a value for eq\./);
    expect(problem({ source: 'status', op: 'lt', value: '5' })).toMatch(
      /value: Enter a number: lt compares numbers/,
    );
    expect(problem({ source: 'json', path: '$.a', op: 'exists', value: 'yes' })).toMatch(
      /value: Use true \(the default\) or false for exists\./,
    );
    expect(problem({ source: 'body', op: 'matches', value: 7 })).toMatch(
      /value: Enter a regular expression \(a string\) for matches\./,
    );
    expect(problem({ source: 'body', op: 'matches', value: '(a)\\1' })).toMatch(
      /value: This is not a supported/,
    );
    expect(problem({ source: 'body', op: 'matches', value: '(?=a)' })).toMatch(
      /value: This is not a supported/,
    );
    expect(problem({ source: 'body', op: 'matches', value: 'a'.repeat(513) })).toMatch(
      /^value: (Too big|Use at most)/,
    );
    expect(problem({ source: 'body', op: 'matches', value: '(a{1,100}){1,100}' })).toMatch(
      /value: This (pattern is too complex|is not a supported)/,
    );
    expect(problem({ source: 'body', op: 'contains', value: 'x', extra: 1 })).toBeDefined();
  });

  it('takes at most 20', () => {
    const one = { source: 'status', op: 'eq', value: 200 };
    expect(assertionsInputSchema.safeParse(Array(20).fill(one)).success).toBe(true);
    expect(assertionsInputSchema.safeParse(Array(21).fill(one)).success).toBe(false);
  });
});

/** Generated JSON documents and paths into them (some present, some not). */
const jsonValue = fc.jsonValue({ maxDepth: 4 });
const key = fc.stringMatching(/^[A-Za-z_][\w]{0,6}$/);
const segment = fc.oneof(
  key.map((k) => `.${k}`),
  fc.nat({ max: 4 }).map((n) => `[${n}]`),
);
const path = fc.array(segment, { maxLength: 4 }).map((s) => `$${s.join('')}`);
const scalar = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

describe('properties of the evaluator', () => {
  const jsonAssert = (doc: unknown, p: string, op: HttpAssertion['op'], value?: HttpAssertion['value']) =>
    evaluateAssertions([{ source: 'json', path: p, op, ...(value !== undefined ? { value } : {}) }], {
      ...response(),
      body: JSON.stringify(doc),
    }) === undefined;

  it('eq and ne are complementary', () => {
    fc.assert(
      fc.property(
        jsonValue,
        path,
        scalar,
        (doc, p, v) => jsonAssert(doc, p, 'eq', v) !== jsonAssert(doc, p, 'ne', v),
      ),
    );
  });

  it('contains and not_contains are complementary', () => {
    fc.assert(
      fc.property(
        jsonValue,
        path,
        fc.string({ maxLength: 4 }),
        (doc, p, v) => jsonAssert(doc, p, 'contains', v) !== jsonAssert(doc, p, 'not_contains', v),
      ),
    );
  });

  it('lt and gte (and gt and lte) are complementary on numbers', () => {
    const num = fc.double({ noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(num, num, (actual, bound) => {
        const doc = { n: actual };
        return (
          jsonAssert(doc, '$.n', 'lt', bound) !== jsonAssert(doc, '$.n', 'gte', bound) &&
          jsonAssert(doc, '$.n', 'gt', bound) !== jsonAssert(doc, '$.n', 'lte', bound)
        );
      }),
    );
  });

  it('exists agrees with walking the path, and exists true/false are complementary', () => {
    fc.assert(
      fc.property(jsonValue, path, (doc, p) => {
        const segments = parseJsonPath(p) ?? [];
        const present = walkJson(doc, segments) !== undefined;
        return jsonAssert(doc, p, 'exists') === present && jsonAssert(doc, p, 'exists', false) === !present;
      }),
    );
  });

  it('a value placed at a path is found there by eq and exists', () => {
    fc.assert(
      fc.property(key, key, fc.nat({ max: 3 }), scalar, (a, b, i, v) => {
        const list: unknown[] = Array(i + 1).fill(0);
        list[i] = { [b]: v };
        const doc = { [a]: list };
        const p = `$.${a}[${i}].${b}`;
        return jsonAssert(doc, p, 'exists') && jsonAssert(doc, p, 'eq', v);
      }),
    );
  });

  it('never throws, whatever the body, headers and assertion', () => {
    const anyAssertion = fc.record({
      source: fc.constantFrom('status', 'body', 'json', 'header', 'latency_ms' as const),
      path: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
      op: fc.constantFrom(
        'eq',
        'ne',
        'lt',
        'lte',
        'gt',
        'gte',
        'contains',
        'not_contains',
        'matches',
        'exists' as const,
      ),
      value: fc.option(fc.oneof(scalar, fc.string({ maxLength: 12 })), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(anyAssertion, { maxLength: 5 }),
        fc.string({ maxLength: 200 }),
        (assertions, body) => {
          const out = evaluateAssertions(assertions as HttpAssertion[], { ...response(), body });
          return out === undefined || out.startsWith('assertion failed: ');
        },
      ),
    );
  });

  it('any accepted pattern runs linearly: a pathological one on a long text finishes', () => {
    // (a+)+$ backtracks exponentially in a backtracking engine; RE2 runs it in linear time.
    const body = `${'a'.repeat(60_000)}!`;
    const out = evaluateAssertions([{ source: 'body', op: 'matches', value: '(a+)+$' }], {
      ...response(),
      body,
    });
    expect(out).toBe('assertion failed: body, expected matches "(a+)+$"');
  });

  it('generated patterns either validate and then never throw, or are refused', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 16 }), fc.string({ maxLength: 64 }), (pattern, body) => {
        const a = { source: 'body' as const, op: 'matches' as const, value: pattern };
        if (!assertionInputSchema.safeParse(a).success) return true;
        const out = evaluateAssertions([a], { ...response(), body });
        return out === undefined || out.startsWith('assertion failed: body');
      }),
    );
  });
});
