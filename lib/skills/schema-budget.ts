/**
 * The bounds that keep validating one tool call cheap whatever a tenant's inputSchema says
 * (docs/mcp.md "Limits of tool schemas and arguments"). Validation costs about (subschemas applied)
 * x (argument values): a subschema applies at most once to each value, since `$ref`s are expanded
 * and may not recurse; `enum`/`const` compare each of their values; an RE2 pattern runs in time
 * linear in the text; `uniqueItems` is linear (lib/skills/input-schema.ts). Both factors are
 * bounded here: the schema at registration (and again when a call compiles it), the arguments
 * before validation.
 */

export const SCHEMA_BUDGET = {
  /** Subschemas with every `$ref` expanded where it is used. */
  subschemas: 256,
  /** `pattern`s and `patternProperties` keys, with `$ref`s expanded. */
  patterns: 16,
  /** Values of `enum` and `const`, with `$ref`s expanded. */
  enumValues: 256,
  /** RE2 instructions of one compiled pattern. */
  patternInstructions: 1000,
} as const;

export const ARGUMENT_LIMITS = {
  /** Bytes of the arguments as JSON. */
  bytes: 64 * 1024,
  /** Values in all: every string, number, boolean, null, array and object. */
  values: 4096,
  /** Items of one array. */
  arrayItems: 1000,
  /** Levels of nesting (the arguments object is level 1). */
  depth: 32,
} as const;

/** Keywords whose value is one subschema, a list of them, or a map of names to them (JSON Schema 2020-12 and draft-07). */
const ONE = new Set([
  'additionalProperties',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'items',
  'contentSchema',
]);
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies']);
/** Maps of subschemas evaluated only through a `$ref`. */
const DEFINITIONS = new Set(['$defs', 'definitions']);

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The subschemas directly under a schema, with whether they are only definitions. */
function* children(schema: Schema): Generator<[Schema, boolean]> {
  for (const [keyword, value] of Object.entries(schema)) {
    if (ONE.has(keyword) && isSchema(value)) yield [value, false];
    if (LIST.has(keyword) && Array.isArray(value)) for (const s of value) if (isSchema(s)) yield [s, false];
    const map = MAP.has(keyword) || DEFINITIONS.has(keyword);
    if (map && isSchema(value))
      for (const s of Object.values(value)) if (isSchema(s)) yield [s, DEFINITIONS.has(keyword)];
  }
}

class BudgetError extends Error {}

/** `reference` resolved against `base`; a reference that is no URI is the schema's fault. */
function uri(reference: string, base: string): URL {
  try {
    return new URL(reference, base);
  } catch {
    throw new BudgetError(`${reference} is not a valid URI reference`);
  }
}

/** Resolves `$ref`s inside one schema document: nested `$id`s, anchors and JSON pointers. */
function indexOf(root: Schema) {
  const documents = new Map<string, Schema>();
  const anchors = new Map<string, Schema>();
  const baseOf = new Map<Schema, string>();
  const visit = (schema: Schema, parentBase: string) => {
    let base = parentBase;
    const id = schema.$id;
    if (typeof id === 'string' && id.startsWith('#')) anchors.set(`${base}${id}`, schema);
    else if (typeof id === 'string') {
      const url = uri(id, base);
      url.hash = '';
      base = url.href;
      documents.set(base, schema);
    }
    for (const keyword of ['$anchor', '$dynamicAnchor'])
      if (typeof schema[keyword] === 'string') anchors.set(`${base}#${schema[keyword]}`, schema);
    baseOf.set(schema, base);
    for (const [child] of children(schema)) visit(child, base);
  };
  const rootBase = 'https://schema.vigil.invalid/input.json';
  documents.set(rootBase, root);
  visit(root, rootBase);

  const resolve = (schema: Schema, ref: string): Schema => {
    const url = uri(ref, baseOf.get(schema) ?? rootBase);
    let fragment: string;
    try {
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      throw new BudgetError(`$ref ${ref} is not a valid URI reference`);
    }
    url.hash = '';
    const document = documents.get(url.href);
    const target =
      document === undefined || fragment === ''
        ? document
        : fragment.startsWith('/')
          ? pointer(document, fragment)
          : anchors.get(`${url.href}#${fragment}`);
    if (!isSchema(target)) throw new BudgetError(`$ref ${ref} points to no subschema of the same schema`);
    return target;
  };
  return resolve;
}

/** The value a JSON pointer (RFC 6901) names inside `document`. */
function pointer(document: Schema, path: string): unknown {
  let at: unknown = document;
  for (const token of path.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    at = typeof at === 'object' && at !== null && Object.hasOwn(at, key) ? (at as Schema)[key] : undefined;
  }
  return at;
}

interface Cost {
  subschemas: number;
  patterns: number;
  enumValues: number;
}

/**
 * Why validating against `schema` could exceed SCHEMA_BUDGET, or undefined: `$ref`s are expanded
 * where they are used (a recursive one, `$dynamicRef` and `$recursiveRef` are refused, since they
 * would let a subschema apply more than once to a value), then subschemas, patterns and enum
 * values are counted.
 */
export function schemaBudgetProblem(schema: Schema): string | undefined {
  try {
    const resolve = indexOf(schema);
    const costs = new Map<Schema, Cost>();
    const open = new Set<Schema>();
    const cost = (node: Schema): Cost => {
      const known = costs.get(node);
      if (known) return known;
      if (open.has(node)) throw new BudgetError('a $ref may not recurse (a schema may not refer to itself)');
      for (const keyword of ['$dynamicRef', '$recursiveRef'])
        if (keyword in node) throw new BudgetError(`${keyword} is not supported`);
      open.add(node);
      const total: Cost = {
        subschemas: 1,
        patterns:
          (typeof node.pattern === 'string' ? 1 : 0) +
          Object.keys(isSchema(node.patternProperties) ? node.patternProperties : {}).length,
        enumValues: (Array.isArray(node.enum) ? node.enum.length : 0) + ('const' in node ? 1 : 0),
      };
      const parts = [...children(node)].filter(([, definition]) => !definition).map(([child]) => child);
      if (typeof node.$ref === 'string') parts.push(resolve(node, node.$ref));
      for (const part of parts) {
        const c = cost(part);
        total.subschemas += c.subschemas;
        total.patterns += c.patterns;
        total.enumValues += c.enumValues;
      }
      open.delete(node);
      costs.set(node, total);
      return total;
    };
    const total = cost(schema);
    if (total.subschemas > SCHEMA_BUDGET.subschemas)
      return `has ${total.subschemas} subschemas with its $refs expanded: at most ${SCHEMA_BUDGET.subschemas}`;
    if (total.patterns > SCHEMA_BUDGET.patterns)
      return `has ${total.patterns} patterns with its $refs expanded: at most ${SCHEMA_BUDGET.patterns}`;
    if (total.enumValues > SCHEMA_BUDGET.enumValues)
      return `has ${total.enumValues} enum and const values with its $refs expanded: at most ${SCHEMA_BUDGET.enumValues}`;
    return undefined;
  } catch (error) {
    if (error instanceof BudgetError) return error.message;
    throw error;
  }
}

/**
 * Which bound of ARGUMENT_LIMITS a call's arguments exceed, or undefined. Walked without
 * recursion, so no nesting can overflow the stack before the depth bound refuses it.
 */
export function argumentsProblem(args: unknown): string | undefined {
  const stack: [unknown, number][] = [[args, 1]];
  let values = 0;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, depth] = next;
    values += 1;
    if (values > ARGUMENT_LIMITS.values) return `at most ${ARGUMENT_LIMITS.values} values in all`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > ARGUMENT_LIMITS.depth) return `at most ${ARGUMENT_LIMITS.depth} levels of nesting`;
    if (Array.isArray(value) && value.length > ARGUMENT_LIMITS.arrayItems)
      return `at most ${ARGUMENT_LIMITS.arrayItems} items per array`;
    for (const item of Object.values(value)) stack.push([item, depth + 1]);
  }
  if (Buffer.byteLength(JSON.stringify(args), 'utf8') > ARGUMENT_LIMITS.bytes)
    return `at most ${ARGUMENT_LIMITS.bytes} bytes as JSON`;
  return undefined;
}
