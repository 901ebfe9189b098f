import * as z from 'zod';
import {
  assertionInput,
  HEADER_NAME,
  jsonPathSchema,
  storedAssertionSchema,
} from '../../domain/assertions.ts';
import { REDACTED } from '../../domain/redaction.ts';
import { HTTP_METHODS } from '../contract/fields.ts';
import { NAME_PATTERN, references } from './templates.ts';

/**
 * A multistep check's config (DECISIONS.md "Scripted checks"): variables, and up to 10 steps, each
 * an HTTP request with the http check's assertions and extractions into values later steps use.
 * `input` is the request's (strict, sentence-long messages, every reference checked); `stored`
 * reads an item back without checking again.
 */

const MAX_STEPS = 10;
const MAX_VARIABLES = 20;
const MAX_EXTRACTIONS = 10;
const MAX_HEADERS = 20;
const MAX_ASSERTIONS = 20;

const NAME_MESSAGE = 'Use a letter or "_" then letters, digits or "_" (64 characters at most).';
const name = z.string().regex(NAME_PATTERN, NAME_MESSAGE);

/** A variable of a scripted check (multistep, browser): its value, and whether it is a write-only secret. */
export const variable = z.strictObject({
  value: z.string().max(4096, 'Enter a value of 4096 characters or fewer.'),
  secret: z
    .boolean()
    .optional()
    .meta({
      description: `Write-only: read back as ${REDACTED} and hidden in every result and error. Default false.`,
    }),
});

const extraction = z.discriminatedUnion(
  'source',
  [
    z.strictObject({
      source: z.literal('json_body'),
      path: jsonPathSchema,
    }),
    z.strictObject({
      source: z.literal('header'),
      name: z.string().regex(HEADER_NAME, 'Enter a header name.'),
    }),
    z.strictObject({
      source: z.literal('body_regex'),
      pattern: z
        .string()
        .min(1)
        .max(512, 'Enter a pattern of 512 characters or fewer.')
        .meta({ description: 'An RE2 pattern; the first capture group (or the whole match) is the value' }),
    }),
    z.strictObject({ source: z.literal('cookie'), name: z.string().min(1).max(256) }),
  ],
  {
    error:
      'Use {source: json_body, path}, {source: header, name}, {source: body_regex, pattern} or {source: cookie, name}.',
  },
);

// The http check's shapes, so the document states them; without RE2 (the worker's bundle carries
// this schema), so a pattern RE2 cannot run is refused when the step runs.
const assertion = assertionInput().meta({
  description: "An http check's assertion (HttpAssertion) on this step's response",
});

const url = z
  .string()
  .max(2048, 'Enter a URL of 2048 characters or fewer.')
  .regex(
    /^https?:\/\/[^/{}\s]/i,
    'Enter an absolute http:// or https:// URL (references may follow the host).',
  )
  .meta({ description: 'An absolute http(s) URL; may hold {{variables.x}} and {{steps.<name>.<var>}}' });

const step = z.strictObject({
  name: name.meta({
    description: 'Unique in the check; later steps read its values as {{steps.<name>.<var>}}',
  }),
  method: z.enum(HTTP_METHODS).optional().meta({ description: 'GET when absent' }),
  url,
  headers: z
    .record(z.string().regex(HEADER_NAME, 'Enter a header name.'), z.string().max(8192))
    .refine((h) => Object.keys(h).length <= MAX_HEADERS, `Send at most ${MAX_HEADERS} headers.`)
    .optional(),
  body: z
    .string()
    .max(64 * 1024, 'Send a body of 64 KiB or less.')
    .optional(),
  expected_status: z.number().int().min(100).max(599).optional().meta({
    description: 'The status this step must answer; absent: any 2xx',
  }),
  assertions: z.array(assertion).max(MAX_ASSERTIONS, `Use at most ${MAX_ASSERTIONS} assertions.`).optional(),
  extract: z
    .record(name, extraction)
    .refine((e) => Object.keys(e).length <= MAX_EXTRACTIONS, `Extract at most ${MAX_EXTRACTIONS} values.`)
    .optional(),
  timeout_ms: z.number().int().min(100).max(60_000).optional().meta({
    description: "This step's own budget; absent: what is left of the check's timeout_ms",
  }),
  degraded_latency_ms: z.number().int().min(1).max(60_000).optional().meta({
    description: 'This step passing slower than this (ms) makes the result degraded',
  }),
});

export type MultistepStep = z.output<typeof step>;

const inputShape = {
  variables: z
    .record(name, variable)
    .refine((v) => Object.keys(v).length <= MAX_VARIABLES, `Use at most ${MAX_VARIABLES} variables.`)
    .optional(),
  steps: z.array(step).min(1, 'Give at least one step.').max(MAX_STEPS, `Use at most ${MAX_STEPS} steps.`),
};

/** The request's config: every reference names a variable, or a value an earlier step extracts. */
export const multistepInput = z.strictObject(inputShape).superRefine((config, ctx) => {
  const extracted = new Map<string, Set<string>>();
  config.steps.forEach((s, index) => {
    if (extracted.has(s.name))
      ctx.addIssue({
        code: 'custom',
        path: ['steps', index, 'name'],
        message: `Another step is named "${s.name}".`,
      });
    const texts: [PropertyKey[], string][] = [
      [['url'], s.url],
      ...Object.entries(s.headers ?? {}).map(([h, v]): [PropertyKey[], string] => [['headers', h], v]),
      ...(s.body !== undefined ? [[['body'], s.body] as [PropertyKey[], string]] : []),
    ];
    for (const [path, text] of texts) {
      const problem = referenceProblem(text, config.variables ?? {}, extracted);
      if (problem) ctx.addIssue({ code: 'custom', path: ['steps', index, ...path], message: problem });
    }
    extracted.set(s.name, new Set(Object.keys(s.extract ?? {})));
  });
});

/** Why a text's references cannot all be filled, or undefined. */
function referenceProblem(
  text: string,
  variables: Record<string, unknown>,
  extracted: ReadonlyMap<string, ReadonlySet<string>>,
): string | undefined {
  for (const ref of references(text)) {
    if (ref.kind === 'unknown')
      return `${ref.text} is not a reference: use {{variables.<name>}} or {{steps.<step>.<value>}}.`;
    if (ref.kind === 'variable' && !Object.hasOwn(variables, ref.name))
      return `${ref.text}: no variable is named "${ref.name}".`;
    if (ref.kind === 'step' && !extracted.get(ref.step)?.has(ref.name))
      return `${ref.text}: no earlier step "${ref.step}" extracts "${ref.name}".`;
  }
  return undefined;
}

/** The config as stored: read back leniently (unknown keys dropped). */
export const multistepStored = z.object({
  variables: z.record(z.string(), z.object({ value: z.string(), secret: z.boolean().optional() })).optional(),
  steps: z.array(
    z.object({
      name: z.string(),
      method: z.enum(HTTP_METHODS).optional(),
      url: z.string(),
      headers: z.record(z.string(), z.string()).optional(),
      body: z.string().optional(),
      expected_status: z.number().int().optional(),
      assertions: z.array(storedAssertionSchema).optional(),
      extract: z
        .record(
          z.string(),
          z.discriminatedUnion('source', [
            z.object({ source: z.literal('json_body'), path: z.string() }),
            z.object({ source: z.literal('header'), name: z.string() }),
            z.object({ source: z.literal('body_regex'), pattern: z.string() }),
            z.object({ source: z.literal('cookie'), name: z.string() }),
          ]),
        )
        .optional(),
      timeout_ms: z.number().int().optional(),
      degraded_latency_ms: z.number().int().optional(),
    }),
  ),
});

export type MultistepConfig = z.output<typeof multistepInput>;

/** The config as the Check responses show it: a secret variable's value reads `********`. */
export const multistepView = z.strictObject(inputShape);
