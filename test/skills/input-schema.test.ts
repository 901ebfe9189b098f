import { describe, expect, it } from 'vitest';
import { createInputSchemaCompiler, re2Engine } from '../../lib/skills/input-schema.ts';
import {
  ARGUMENT_LIMITS,
  argumentsProblem,
  SCHEMA_BUDGET,
  schemaBudgetProblem,
} from '../../lib/skills/schema-budget.ts';

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('the RE2 engine of tool inputSchemas', () => {
  it('runs the audit’s backtracking pattern in RE2 and keeps JSON Schema’s unanchored search', () => {
    const rx = re2Engine('^(a+)+$', 'u');
    expect(rx.test(`${'a'.repeat(30)}!`)).toBe(false);
    expect(rx.test('aaaa')).toBe(true);
    expect(re2Engine('b+', 'u').test('abbbc')).toBe(true);
  });

  it('translates ECMA-262 escapes into RE2 syntax', () => {
    expect(re2Engine('^\\u00e9$', 'u').test('é')).toBe(true);
    expect(re2Engine('^(?<word>\\w+)$', 'u').test('hello')).toBe(true);
  });

  it.each(['(a)\\1', '(?=a)a', '(?!a)b', '(?<=a)b'])('refuses %j, which RE2 cannot run', (pattern) => {
    expect(() => re2Engine(pattern, 'u')).toThrow(/is not supported \(RE2 syntax/);
  });

  it('refuses a pattern over the instruction bound', () => {
    expect(() => re2Engine(`a{${SCHEMA_BUDGET.patternInstructions}}`, 'u')).toThrow(/too complex/);
  });
});

describe('the inputSchema compiler', () => {
  const compile = createInputSchemaCompiler('call');

  it('checks uniqueItems by JSON value, key order aside', () => {
    const validate = compile(object({ l: { type: 'array', uniqueItems: true } }));
    expect(
      validate({
        l: [
          { a: 1, b: [1, 2] },
          { b: [1, 2], a: 1 },
        ],
      }),
    ).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({
      instancePath: '/l',
      keyword: 'uniqueItems',
      message: 'must NOT have duplicate items (items ## 0 and 1 are identical)',
    });
    expect(validate({ l: [1, '1', [1], { 1: 1 }, null, true] })).toBe(true);
    expect(validate({ l: [{ a: [1, 2] }, { a: [2, 1] }] })).toBe(true);
  });

  it('reports the first problem of a call only, filling defaults in', () => {
    const validate = compile(
      object({ a: { type: 'integer' }, b: { type: 'integer' }, n: { type: 'integer', default: 3 } }),
    );
    expect(validate({ a: 'x', b: 'y' })).toBe(false);
    expect(validate.errors).toHaveLength(1);
    const input: Record<string, unknown> = { a: 1 };
    expect(validate(input)).toBe(true);
    expect(input.n).toBe(3);
  });

  it('refuses at registration a schema over the budget or with a pattern RE2 cannot run', () => {
    const register = createInputSchemaCompiler();
    expect(() => register(object({ s: { type: 'string', pattern: '(a)\\1' } }))).toThrow(/RE2/);
    const patterns = Array.from({ length: SCHEMA_BUDGET.patterns + 1 }, (_, i) => ({ pattern: `x${i}` }));
    expect(() => register(object({ s: { type: 'string', allOf: patterns } }))).toThrow(/patterns/);
  });
});

describe('the validation budget of an inputSchema', () => {
  it('expands $refs where they are used', () => {
    // Each level refers to the next twice: a few bytes of schema, 2^12 subschemas applied.
    const $defs: Record<string, unknown> = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `l${i}`,
        { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] },
      ]),
    );
    $defs.l12 = { type: 'string' };
    expect(schemaBudgetProblem({ type: 'object', $defs, properties: { x: { $ref: '#/$defs/l0' } } })).toMatch(
      /subschemas with its \$refs expanded: at most 256/,
    );
    $defs.l4 = { type: 'string' };
    expect(schemaBudgetProblem({ type: 'object', $defs, properties: { x: { $ref: '#/$defs/l0' } } })).toBe(
      undefined,
    );
  });

  it('resolves $refs to nested $ids and anchors', () => {
    const schema = {
      type: 'object',
      properties: { n: { $ref: 'https://example.com/count' }, m: { $ref: '#name' } },
      $defs: {
        count: { $id: 'https://example.com/count', type: 'integer' },
        named: { $anchor: 'name', type: 'string' },
      },
    };
    expect(schemaBudgetProblem(schema)).toBe(undefined);
  });

  it.each([
    ['a recursive $ref', object({ child: { $ref: '#' } }), /may not recurse/],
    [
      'a $ref outside the schema',
      object({ x: { $ref: 'https://example.com/other' } }),
      /points to no subschema/,
    ],
    ['a $ref to nothing', object({ x: { $ref: '#/$defs/missing' } }), /points to no subschema/],
    ['$dynamicRef', object({ x: { $dynamicRef: '#node' } }), /\$dynamicRef is not supported/],
    [
      'too many enum values',
      object({ x: { enum: Array.from({ length: SCHEMA_BUDGET.enumValues + 1 }, (_, i) => i) } }),
      /enum and const values/,
    ],
    [
      'too many patternProperties',
      object(
        {},
        {
          patternProperties: Object.fromEntries(
            Array.from({ length: SCHEMA_BUDGET.patterns + 1 }, (_, i) => [`^p${i}`, {}]),
          ),
        },
      ),
      /patterns/,
    ],
  ])('refuses %s', (_label, schema, message) => {
    expect(schemaBudgetProblem(schema)).toMatch(message);
  });
});

describe('the bounds of a call’s arguments', () => {
  it('accepts arguments within every bound', () => {
    expect(argumentsProblem({ list: Array.from({ length: ARGUMENT_LIMITS.arrayItems }, () => 'x') })).toBe(
      undefined,
    );
  });

  it('names the bound an argument exceeds', () => {
    expect(argumentsProblem({ list: Array.from({ length: ARGUMENT_LIMITS.arrayItems + 1 }, () => 0) })).toBe(
      `at most ${ARGUMENT_LIMITS.arrayItems} items per array`,
    );
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(argumentsProblem({ deep })).toBe(`at most ${ARGUMENT_LIMITS.depth} levels of nesting`);
    expect(argumentsProblem({ s: 'x'.repeat(ARGUMENT_LIMITS.bytes) })).toBe(
      `at most ${ARGUMENT_LIMITS.bytes} bytes as JSON`,
    );
    const many = Object.fromEntries(Array.from({ length: ARGUMENT_LIMITS.values }, (_, i) => [`k${i}`, i]));
    expect(argumentsProblem(many)).toBe(`at most ${ARGUMENT_LIMITS.values} values in all`);
  });
});
