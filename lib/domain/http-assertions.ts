import { RE2JS } from 're2js';
import * as z from 'zod';
import {
  assertionProblem,
  HEADER_NAME,
  HEADER_NAME_MESSAGE,
  JSON_PATH_MESSAGE,
} from './assertions/assertion-problem.ts';
import { compileWith, MAX_PATH_LENGTH, MAX_PATTERN_LENGTH } from './assertions/assertion-syntax.ts';
import {
  type ASSERTION_OPS,
  type ASSERTION_SOURCES,
  assertionValueSchema,
  storedAssertionSchema,
} from './assertions/stored-assertions.ts';

/**
 * HTTP assertions (DECISIONS.md "HTTP assertions and degraded"): what an http check asserts on
 * the response besides its expected status, all of which must pass. Validated here once, at the
 * API boundary (a regex must compile on RE2 within a program budget, a json path must parse), and
 * stored leniently so a stored check always reads back (./stored-assertions.ts, which the
 * functions that only read checks import without RE2). lib/probes/assertions.ts evaluates them.
 */

type AssertionSource = (typeof ASSERTION_SOURCES)[number];
export type AssertionOp = (typeof ASSERTION_OPS)[number];

const MAX_ASSERTIONS = 20;

export type AssertionValue = string | number | boolean | null;

export interface HttpAssertion {
  source: AssertionSource;
  path?: string;
  op: AssertionOp;
  value?: AssertionValue;
}

/** The RE2 program of a pattern, or why it is refused (syntax RE2 cannot run linearly, or too large). */
function compilePattern(pattern: string): RE2JS | string {
  return compileWith(RE2JS, pattern);
}

/** The json path syntax parseJsonPath reads, for the document (the parser is the rule). */
const JSON_PATH_PATTERN = '^\\$(?:\\.[A-Za-z_$][A-Za-z0-9_$-]*|\\[[0-9]{1,9}\\])*$';
const pathSchemas = {
  plain: {},
  json: {
    path: z
      .string()
      .max(MAX_PATH_LENGTH)
      .regex(new RegExp(JSON_PATH_PATTERN), { error: JSON_PATH_MESSAGE })
      .meta({ description: 'A json path in dotted form: $.data.items[0].status' }),
  },
  header: {
    path: z
      .string()
      .regex(HEADER_NAME, { error: HEADER_NAME_MESSAGE })
      .meta({ description: 'The header name (any case)' }),
  },
} as const;
const sourceSchemas = {
  plain: z.enum(['status', 'body', 'latency_ms']),
  json: z.literal('json'),
  header: z.literal('header'),
} as const;
const opShapes = [
  { op: z.enum(['eq', 'ne', 'contains', 'not_contains']), value: assertionValueSchema },
  { op: z.enum(['lt', 'lte', 'gt', 'gte']), value: z.number() },
  {
    op: z.literal('matches'),
    value: z
      .string()
      .max(MAX_PATTERN_LENGTH)
      .meta({ description: 'An RE2 regular expression (no lookaround or backreferences)' }),
  },
  {
    op: z.literal('exists'),
    value: z.boolean().optional().meta({ description: 'true (the default): must exist; false: must not' }),
  },
] as const;

/**
 * One assertion as requests send it: one shape per kind of source (json and header take a path,
 * the others none) and kind of op (numbers for lt/lte/gt/gte, a regex for matches, a boolean or
 * nothing for exists), so the document states them; a refusal names the field (assertionProblem).
 */
export const assertionInputSchema = z
  .union(
    (['plain', 'json', 'header'] as const).flatMap((kind) =>
      opShapes.map((shape) =>
        z.strictObject({ source: sourceSchemas[kind], ...pathSchemas[kind], ...shape }),
      ),
    ) as unknown as [z.ZodType<HttpAssertion>, ...z.ZodType<HttpAssertion>[]],
    {
      error: (issue) => {
        if (issue.code !== 'invalid_union') return undefined;
        const parsed = storedAssertionSchema.safeParse(issue.input);
        if (!parsed.success) return 'Use {source, path?, op, value?} with a known source and op.';
        const problem = assertionProblem(parsed.data, compilePattern);
        return problem ? `${problem[0]}: ${problem[1]}` : 'This is not a valid assertion.';
      },
    },
  )
  .superRefine((a, ctx) => {
    // What the document cannot state: a pattern RE2 refuses or that compiles too large.
    const problem = assertionProblem(a, compilePattern);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem[0]], message: problem[1] });
  })
  .meta({ id: 'HttpAssertion' });

export const assertionsInputSchema = z
  .array(assertionInputSchema)
  .max(MAX_ASSERTIONS, { error: `Use at most ${MAX_ASSERTIONS} assertions.` });

/** `degraded_latency_ms`: a success slower than this is degraded. */
export const degradedLatencySchema = z
  .number()
  .int()
  .min(1)
  .max(600_000)
  .nullable()
  .meta({ description: 'A successful probe slower than this (ms) makes the check degraded; null: never' });
