import * as z from 'zod';
import {
  type ASSERT_SUBJECTS,
  BROWSER_ACTIONS,
  browserStepSchema,
  COUNT_OPS,
  TRACE_MODES,
  viewportSchema,
} from '../../probes/browser-wire.ts';
import { variable } from '../multistep/multistep-schema.ts';
import { NAME_PATTERN, references } from '../multistep/templates.ts';

/**
 * A browser check's config (DECISIONS.md "Scripted checks"): variables, up to 30 steps a headless
 * Chromium runs in order, the viewport and whether a run records a Playwright trace. A step's
 * fields are its action's (a discriminated union): `wait_for` takes exactly one of `selector`,
 * `text`, `url`; `assert` names its `subject` (text, title, url, count). `input` is the request's
 * (strict, sentence-long messages, each step's fields and references checked); `stored` reads an
 * item back without checking again.
 */

const MAX_STEPS = 30;
const MAX_VARIABLES = 20;

const NAME_MESSAGE = 'Use a letter or "_" then letters, digits or "_" (64 characters at most).';

const text = (what: string, max: number) =>
  z.string().min(1, `Enter the ${what}.`).max(max, `Enter a ${what} of ${max} characters or fewer.`);

const selector = text('selector', 1024).meta({
  description: 'A Playwright selector (CSS, `text=…`, `role=…`)',
});
const value = (what: string) =>
  z
    .string()
    .max(4096, 'Enter a value of 4096 characters or fewer.')
    .meta({ description: `${what}. May hold {{variables.x}}` });
const urlPart = z
  .string()
  .max(2048, 'Enter a URL of 2048 characters or fewer.')
  .meta({ description: 'A part the page URL contains. May hold {{variables.x}}' });
const own = {
  timeout_ms: z.number().int().min(100).max(60_000).optional().meta({
    description: "This step's own budget; absent: 10 s, cut to what is left of the check's timeout_ms",
  }),
};
/** A step of `action`, with the fields it takes (each strict: a field it does not take is refused). */
const action = <A extends (typeof BROWSER_ACTIONS)[number], S extends z.ZodRawShape>(name: A, shape: S) =>
  z.strictObject({ action: z.literal(name), ...shape, ...own });
/** An assert step checking `subject`. */
const assertOf = <S extends (typeof ASSERT_SUBJECTS)[number], F extends z.ZodRawShape>(
  subject: S,
  shape: F,
) => action('assert', { subject: z.literal(subject), ...shape });

/**
 * One step, its fields by its action (an assert's by its subject): the document states each as an
 * alternative. `wait_for` is one shape whose one field of three is checked by stepProblem.
 */
const step = z.discriminatedUnion(
  'action',
  [
    action('goto', {
      url: z
        .string()
        .max(2048, 'Enter a URL of 2048 characters or fewer.')
        .regex(
          /^https?:\/\/[^/{}\s]/i,
          'Enter an absolute http:// or https:// URL (references may follow the host).',
        )
        .meta({ description: 'An absolute http(s) URL; may hold {{variables.x}} after the host' }),
    }),
    action('click', { selector }),
    action('fill', { selector, value: value('The text typed') }),
    action('press', { value: value('The key ("Enter", "Control+A")'), selector: selector.optional() }),
    action('select', { selector, value: value('The option value') }),
    action('screenshot', {}),
    action('wait_for', {
      selector: selector.optional(),
      text: text('text', 1024).optional().meta({ description: 'Text the page shows' }),
      url: urlPart.optional(),
    }),
    z.discriminatedUnion(
      'subject',
      [
        assertOf('text', {
          text: text('text', 1024).meta({ description: 'Text the page (or the selector) shows' }),
          selector: selector.optional(),
        }),
        assertOf('title', { text: text('text', 1024).meta({ description: 'A part of the title' }) }),
        assertOf('url', { url: urlPart }),
        assertOf('count', {
          selector,
          count: z
            .number()
            .int()
            .min(0)
            .max(10_000)
            .meta({ description: 'The number of elements it matches' }),
          op: z.enum(COUNT_OPS).optional().meta({ description: 'eq (default), gte or lte' }),
        }),
      ],
      { error: 'assert takes a subject: text, title, url or count.' },
    ),
  ],
  { error: `Use one of: ${BROWSER_ACTIONS.join(', ')}.` },
);

type BrowserStep = z.output<typeof step>;

/** Why a wait_for step does not name exactly one of selector, text and url, as [field, message]. */
function stepProblem(s: BrowserStep): [string, string] | undefined {
  if (s.action !== 'wait_for') return undefined;
  const given = (['selector', 'text', 'url'] as const).filter((f) => s[f] !== undefined);
  return given.length === 1 ? undefined : ['action', 'wait_for takes exactly one of selector, text or url.'];
}

const viewport = z.strictObject({
  width: z.number().int().min(320).max(3840),
  height: z.number().int().min(240).max(2160),
});

const inputShape = {
  variables: z
    .record(z.string().regex(NAME_PATTERN, NAME_MESSAGE), variable)
    .refine((v) => Object.keys(v).length <= MAX_VARIABLES, `Use at most ${MAX_VARIABLES} variables.`)
    .optional(),
  steps: z.array(step).min(1, 'Give at least one step.').max(MAX_STEPS, `Use at most ${MAX_STEPS} steps.`),
  viewport: viewport.optional().meta({ description: 'The page size in CSS pixels; default 1280 x 720' }),
  trace: z
    .enum(TRACE_MODES)
    .optional()
    .meta({ description: 'A Playwright trace: off (default), on_failure, always' }),
};

/** The request's config: each step's fields fit its action, the first is a goto, references name variables. */
export const browserInput = z.strictObject(inputShape).superRefine((config, ctx) => {
  if (config.steps[0] && config.steps[0].action !== 'goto')
    ctx.addIssue({ code: 'custom', path: ['steps', 0, 'action'], message: 'Start with a goto step.' });
  config.steps.forEach((s, index) => {
    const problem = stepProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', path: ['steps', index, problem[0]], message: problem[1] });
    for (const field of ['selector', 'url', 'value', 'text'] as const) {
      const written = (s as Partial<Record<typeof field, string>>)[field];
      for (const ref of references(written ?? '')) {
        const message =
          ref.kind !== 'variable'
            ? `${ref.text} is not a reference: use {{variables.<name>}}.`
            : Object.hasOwn(config.variables ?? {}, ref.name)
              ? undefined
              : `${ref.text}: no variable is named "${ref.name}".`;
        if (message) ctx.addIssue({ code: 'custom', path: ['steps', index, field], message });
      }
    }
  });
});

/** The config as stored: read back leniently (unknown keys dropped). */
export const browserStored = z.object({
  variables: z.record(z.string(), z.object({ value: z.string(), secret: z.boolean().optional() })).optional(),
  steps: z.array(browserStepSchema),
  viewport: viewportSchema.optional(),
  trace: z.enum(TRACE_MODES).optional(),
});

/** A config as the runner reads it: every step one flat shape (what browserInput admits is one of them). */
export type BrowserConfig = z.output<typeof browserStored>;

/** The config as the Check responses show it: a secret variable's value reads `********`. */
export const browserView = z.strictObject(inputShape);
