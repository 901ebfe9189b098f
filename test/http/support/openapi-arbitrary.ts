import fc from 'fast-check';

/**
 * Values VALID by a JSON Schema 2020-12 as the OpenAPI document writes them (z.toJSONSchema's
 * output with $refs inlined): what an OpenAPI-driven tester sends. Generation aims inside the
 * schema; the tester still keeps only what ajv accepts, so a generator shortcut can never send a
 * request the document forbids.
 */

export type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  minProperties?: number;
  maxProperties?: number;
};

/** Values offered for properties by name (real fixture ids, loopback-only URLs) next to generated ones. */
export interface Hints {
  /** Used in place of what the schema would generate. */
  only: Record<string, fc.Arbitrary<unknown>>;
  /** Offered as often as what the schema generates. */
  also: Record<string, fc.Arbitrary<unknown>>;
}

const COMPONENT = '#/components/schemas/';

/** `schema` with every `#/components/schemas/X` reference replaced by the component itself. */
export function inlineRefs(schema: unknown, components: Record<string, Schema>, depth = 0): unknown {
  if (depth > 20) throw new Error('component references nest too deep');
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, components, depth));
  if (typeof schema !== 'object' || schema === null) return schema;
  const { $ref, ...rest } = schema as Schema;
  const out: Record<string, unknown> = {};
  if (typeof $ref === 'string') {
    const target = components[$ref.replace(COMPONENT, '')];
    if (!target) throw new Error(`unknown reference ${$ref}`);
    Object.assign(out, inlineRefs(target, components, depth + 1));
  }
  for (const [key, value] of Object.entries(rest)) out[key] = inlineRefs(value, components, depth);
  return out;
}

/** Characters of the Basic Multilingual Plane but surrogates (see docs/api.md on string lengths). */
const bmpChar = fc
  .oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xd7ff }) },
    { weight: 1, arbitrary: fc.integer({ min: 0xe000, max: 0xfffd }) },
  )
  .map((code) => String.fromCharCode(code));

/** Strings short enough to keep the run cheap, and now and then one of the longest length allowed. */
const SHORT = 24;

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 10_000;
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern, 'u'), { size: 'small' })
      .filter((s) => [...s].length >= min && [...s].length <= max);
  }
  const short = fc.string({ unit: bmpChar, minLength: min, maxLength: Math.max(min, Math.min(max, SHORT)) });
  if (max > 50_000) return short;
  return fc.oneof({ weight: 9, arbitrary: short }, { weight: 1, arbitrary: fc.constant('x'.repeat(max)) });
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
}

function objectOf(schema: Schema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const extra = schema.additionalProperties;
  if (Object.keys(properties).length === 0 && extra !== undefined && extra !== false) {
    // A map (headers, entity fields, vars): names from propertyNames, values from additionalProperties.
    const keys = schema.propertyNames
      ? arbitraryOf(schema.propertyNames, hints)
      : fc.string({ maxLength: 12 });
    const values = extra === true ? fc.jsonValue({ maxDepth: 2 }) : arbitraryOf(extra, hints);
    const maxKeys = Math.min(schema.maxProperties ?? 4, 4);
    return fc.dictionary(keys as fc.Arbitrary<string>, values, {
      minKeys: Math.min(schema.minProperties ?? 0, maxKeys),
      maxKeys,
    });
  }
  const known = Object.fromEntries(
    Object.entries(properties)
      // `not: {}` says the property is absent (a raw-event channel's template, the attach variant's type).
      .filter(([, property]) => !(property.not && Object.keys(property.not).length === 0))
      .map(([name, property]) => [name, propertyOf(name, property, hints)]),
  );
  return fc.record(known, { requiredKeys: [...required].filter((name) => name in known) });
}

function propertyOf(name: string, schema: Schema, hints: Hints): fc.Arbitrary<unknown> {
  // A hint stands for a string (or, `only`, an integer); where the schema wants something else
  // (null, a const), it does.
  const wantsString = schema.type === 'string';
  const only = wantsString || schema.type === 'integer' ? hints.only[name] : undefined;
  if (only) return only;
  // A hint whose value the field's pattern refuses is not this field's (an integration's `token`
  // is 32 letters and digits, not the invitation token the `also` hint offers under that name).
  const hinted = wantsString ? hints.also[name] : undefined;
  const fits = (value: unknown) => !schema.pattern || new RegExp(schema.pattern, 'u').test(String(value));
  const also = hinted && fc.sample(hinted, { numRuns: 1, seed: 1 }).every(fits) ? hinted : undefined;
  const own = arbitraryOf(schema, hints);
  return also ? fc.oneof(also, own) : own;
}

/** Values meant to satisfy `schema` (refs inlined); `not` is honoured by filtering. */
export function arbitraryOf(schema: Schema, hints: Hints): fc.Arbitrary<unknown> {
  const base = baseOf(schema, hints);
  const { not } = schema;
  if (!not?.enum) return base;
  const excluded = not.enum;
  return base.filter((value) => !excluded.includes(value));
}

function baseOf(schema: Schema, hints: Hints): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, hints)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? arbitraryOf(schema.items, hints) : fc.jsonValue({ maxDepth: 2 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object':
      return objectOf(schema, hints);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
