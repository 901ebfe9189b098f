import { Ajv as AjvDraft07, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { DataValidateFunction, RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';
import { SCHEMA_BUDGET, schemaBudgetProblem } from './schema-budget.ts';

/**
 * Compiling tenants' tool inputSchemas (ajv) so that no schema can make validating a call slow:
 * patterns run on RE2 (re2js, linear in the text: no catastrophic backtracking), `uniqueItems` is
 * checked in linear time, and the schema must fit SCHEMA_BUDGET (lib/skills/schema-budget.ts).
 * The same engine compiles at registration and when a call validates its arguments.
 */

/**
 * ajv's regular expression engine: the ECMA-262 pattern translated to RE2 syntax (re2js's
 * translateRegExp: `\u00e9`, named groups, `[^]` …) and compiled by RE2. What RE2 cannot run in
 * linear time (backreferences, lookahead, lookbehind) does not compile, nor does a pattern larger
 * than SCHEMA_BUDGET.patternInstructions.
 */
export const re2Engine: RegExpEngine = Object.assign(
  (pattern: string) => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `pattern ${JSON.stringify(pattern)} is not supported (RE2 syntax: no backreferences or lookaround): ${reason}`,
      );
    }
    if (compiled.programSize() > SCHEMA_BUDGET.patternInstructions)
      throw new Error(
        `pattern ${JSON.stringify(pattern)} is too complex: at most ${SCHEMA_BUDGET.patternInstructions} RE2 instructions`,
      );
    // toString is the pattern, so ajv's per-pattern cache keeps two patterns apart.
    return compiled;
  },
  // The code ajv would print for this engine in standalone validation code (never generated here).
  { code: 're2js' },
);

/** A value as canonical JSON: object keys sorted, so two values are JSON Schema-equal iff their texts are. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * `uniqueItems` in time linear in the array's size (each item's canonical JSON in a map), where
 * ajv's own compares every pair of items. Same error as ajv's.
 */
function linearUniqueItems(schema: boolean): DataValidateFunction {
  const validate: DataValidateFunction = (data: unknown) => {
    if (!schema || !Array.isArray(data)) return true;
    const seen = new Map<string, number>();
    for (const [i, item] of data.entries()) {
      const key = canonical(item);
      const j = seen.get(key);
      if (j !== undefined) {
        validate.errors = [
          {
            keyword: 'uniqueItems',
            message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
            params: { i, j },
          },
        ];
        return false;
      }
      seen.set(key, i);
    }
    return true;
  };
  return validate;
}

type Mode = 'register' | 'call';

/**
 * ajv options per use. Registration: the schema is validated against its dialect's meta-schema
 * (ajv's own), every problem reported, and an unknown keyword fails (`strictSchema`: a misspelt
 * keyword would otherwise validate nothing). ajv's other strict rules are lints that refuse valid
 * schemas, so they are off: `strictRequired` refuses the `anyOf: [{required: [a]}, {required: [b]}]`
 * idiom, `strictTypes` a `minimum` beside no `type`, `strictTuples` a `prefixItems` left open.
 * `allowMatchingProperties` because strict mode would otherwise test property names against
 * patterns with JavaScript's backtracking RegExp. A call: defaults filled in, and validation stops
 * at the first problem, so failing arguments cannot pile up errors.
 */
function optionsFor(mode: Mode) {
  const common = { validateFormats: false, code: { regExp: re2Engine } } as const;
  return mode === 'register'
    ? {
        ...common,
        strictSchema: true,
        strictNumbers: true,
        strictRequired: false,
        strictTypes: false,
        strictTuples: false,
        allowMatchingProperties: true,
        allErrors: true,
      }
    : { ...common, strict: false, useDefaults: true, allErrors: false };
}

/**
 * Keywords of JSON Schema 2020-12's core vocabulary that ajv resolves references by but has no
 * keyword for, so its strict mode would call them unknown: `$anchor` (ajv finds `#name` references
 * by it, ajv-validator/ajv#1854).
 */
const CORE_KEYWORDS_AJV_LACKS = ['$anchor'] as const;

/** The draft-07 dialect URI a tool may name in `$schema`. */
export const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** The URI ajv registers draft-07's meta-schema under. */
const DRAFT_07_URI = 'http://json-schema.org/draft-07/schema#';
/** The 2020-12 dialect URI (MCP's default). */
export const DRAFT_2020_12 = /^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * A compiler of tool inputSchemas: JSON Schema 2020-12 (MCP's default dialect) unless `$schema`
 * names draft-07; `format` is an annotation only. Throws, with a message saying why, when the
 * schema is invalid, over SCHEMA_BUDGET or has a pattern RE2 cannot run. Each compile removes
 * its schema from the ajv instances, but ids nested inside stay registered: make one compiler per
 * manifest (or per schema), never one per process, so tenants' `$id`s never meet.
 */
export function createInputSchemaCompiler(
  mode: Mode = 'register',
): (schema: Record<string, unknown>) => ValidateFunction {
  let draft07: AjvDraft07 | undefined;
  let draft2020: Ajv2020 | undefined;
  const prepared = <A extends AjvDraft07 | Ajv2020>(ajv: A): A => {
    if (ajv instanceof Ajv2020)
      for (const keyword of CORE_KEYWORDS_AJV_LACKS) ajv.addKeyword({ keyword, schemaType: 'string' });
    ajv.removeKeyword('uniqueItems');
    ajv.addKeyword({
      keyword: 'uniqueItems',
      type: 'array',
      schemaType: 'boolean',
      errors: true,
      compile: linearUniqueItems,
    });
    return ajv;
  };
  return (given) => {
    const dialect = given.$schema;
    let ajv: AjvDraft07 | Ajv2020;
    let schema = given;
    if (dialect === undefined || (typeof dialect === 'string' && DRAFT_2020_12.test(dialect))) {
      draft2020 ??= prepared(new Ajv2020(optionsFor(mode)));
      ajv = draft2020;
    } else if (typeof dialect === 'string' && DRAFT_07.test(dialect)) {
      draft07 ??= prepared(new AjvDraft07(optionsFor(mode)));
      ajv = draft07;
      // ajv knows draft-07's meta-schema by its http URI only; https names the same dialect.
      schema = { ...given, $schema: DRAFT_07_URI };
    } else {
      throw new Error('$schema names neither JSON Schema 2020-12 nor draft-07');
    }
    const problem = schemaBudgetProblem(schema);
    if (problem) throw new Error(problem);
    try {
      return ajv.compile(schema);
    } finally {
      ajv.removeSchema(schema);
    }
  };
}
