import * as z from 'zod';
import {
  assertionProblem,
  HEADER_NAME,
  HEADER_NAME_MESSAGE,
  JSON_PATH_MESSAGE,
} from './assertion-problem.ts';
import { MAX_PATH_LENGTH, MAX_PATTERN_LENGTH } from './assertion-syntax.ts';
import { assertionValueSchema, storedAssertionSchema } from './stored-assertions.ts';

type StoredAssertion = z.infer<typeof storedAssertionSchema>;

/**
 * One assertion as requests send it, without RE2: one shape per kind of source (json and header
 * take a path, the others none) and kind of op (numbers for lt/lte/gt/gte, a regex for matches, a
 * boolean or nothing for exists), so the OpenAPI document states them; a refusal names the field
 * (assertionProblem). `compilePattern` also refuses a pattern RE2 cannot run (the API's http
 * check, ../http-assertions.ts); without it (a multistep check's steps, whose worker must not load
 * RE2) a bad pattern is refused when the step runs.
 */
/** The json path syntax parseJsonPath reads, for the document (the parser is the rule). */
const JSON_PATH_PATTERN = '^\\$(?:\\.[A-Za-z_$][A-Za-z0-9_$-]*|\\[[0-9]{1,9}\\])*$';
/** A json path as requests send it: the pattern states the syntax parseJsonPath reads. */
export const jsonPathSchema = z
  .string()
  .max(MAX_PATH_LENGTH)
  .regex(new RegExp(JSON_PATH_PATTERN), { error: JSON_PATH_MESSAGE })
  .meta({ description: 'A json path in dotted form: $.data.items[0].status' });

const pathSchemas = {
  plain: {},
  json: { path: jsonPathSchema },
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

export function assertionInput(compilePattern?: (pattern: string) => unknown) {
  return z
    .union(
      (['plain', 'json', 'header'] as const).flatMap((kind) =>
        opShapes.map((shape) =>
          z.strictObject({ source: sourceSchemas[kind], ...pathSchemas[kind], ...shape }),
        ),
      ) as unknown as [z.ZodType<StoredAssertion>, ...z.ZodType<StoredAssertion>[]],
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
    });
}
