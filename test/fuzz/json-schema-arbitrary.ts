import fc from 'fast-check';

/** The part of JSON Schema (as z.toJSONSchema writes it for request schemas) that generation reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  not?: JsonSchema;
}

/**
 * Values for properties by name, offered next to what the schema alone would generate: real ids of
 * the fixture tenants, URLs and probe configs, so generated bodies reach past validation.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/** Strings short enough to keep generated requests cheap, unless the schema asks for more. */
const MAX_STRING = 64;

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.pattern) {
    // Patterns are anchored; stringMatching honours the anchors and keeps within them.
    return fc.stringMatching(new RegExp(schema.pattern), { size: 'small' });
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectArbitrary(schema: JsonSchema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const known = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const fromSchema = arbitraryFromJsonSchema(property, hints);
      const hint = hints[name];
      return [name, hint ? fc.oneof(hint, fromSchema) : fromSchema];
    }),
  );
  const fixed = fc.record(known, { requiredKeys: [...required].filter((k) => k in known) });
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false || Object.keys(properties).length > 0) return fixed;
  // A map such as entity `fields` or check `headers`: keys from propertyNames, values from the schema.
  const keys = schema.propertyNames ? stringArbitrary(schema.propertyNames) : fc.string({ maxLength: 16 });
  const values = extra === true ? fc.jsonValue({ maxDepth: 2 }) : arbitraryFromJsonSchema(extra, hints);
  return fc.dictionary(keys, values, { maxKeys: 8 });
}

/** Values that satisfy `schema` most of the time (hints may not), for "valid-ish" request parts. */
export function arbitraryFromJsonSchema(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<unknown> {
  if (schema.not) {
    const { not, ...rest } = schema;
    return arbitraryFromJsonSchema(rest, hints).filter((value) => !matchesExclusion(not, value));
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryFromJsonSchema(s, hints)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? arbitraryFromJsonSchema(schema.items, hints) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
      return objectArbitrary(schema, hints);
    default:
      // `{}` (any value), as for entity field values.
      return fc.jsonValue({ maxDepth: 3 });
  }
}

/**
 * Whether `value` matches a `not` schema of the kinds the document states exclusions with (an
 * enum, a pattern, or any of them: the reserved status-page slugs). Other `not`s (`{}` for a
 * property that must be absent) are ignored, as generation ignored every `not` before: the route
 * fuzzer sends such properties on purpose.
 */
function matchesExclusion(schema: JsonSchema, value: unknown): boolean {
  if (schema.anyOf) return schema.anyOf.some((s) => matchesExclusion(s, value));
  if (schema.enum) return schema.enum.includes(value);
  if (schema.pattern) return typeof value === 'string' && new RegExp(schema.pattern).test(value);
  return false;
}
