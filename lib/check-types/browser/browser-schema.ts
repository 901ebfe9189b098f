import * as z from 'zod';
import { REDACTED } from '../../domain/redaction.ts';
import { ASSERT_SUBJECTS, BROWSER_ACTIONS, COUNT_OPS } from '../../probes/browser-wire.ts';
import { NAME_PATTERN, references } from '../multistep/templates.ts';

/**
 * A browser check's config (DECISIONS.md "Scripted checks"): variables, up to 30 steps a headless
 * Chromium runs in order, and the viewport. One flat step shape, `action` deciding which fields it
 * reads: `wait_for` takes exactly one of `selector`, `text`, `url`; `assert` names its `subject`
 * (text, title, url, count). `input` is the request's (strict, sentence-long messages, each
 * step's fields and references checked); `stored` reads an item back without checking again.
 */

const MAX_STEPS = 30;
const MAX_VARIABLES = 20;

const NAME_MESSAGE = 'Use a letter or "_" then letters, digits or "_" (64 characters at most).';

const variable = z.strictObject({
  value: z.string().max(4096, 'Enter a value of 4096 characters or fewer.'),
  secret: z
    .boolean()
    .optional()
    .meta({
      description: `Write-only: read back as ${REDACTED} and hidden in every result and error. Default false.`,
    }),
});

const text = (what: string, max: number) =>
  z.string().min(1, `Enter the ${what}.`).max(max, `Enter a ${what} of ${max} characters or fewer.`);

const step = z.strictObject({
  action: z.enum(BROWSER_ACTIONS, {
    error: `Use one of: ${BROWSER_ACTIONS.join(', ')}.`,
  }),
  selector: text('selector', 1024).optional().meta({
    description:
      'A Playwright selector (CSS, `text=…`, `role=…`): click, fill, select, press (optional: the page), wait_for, assert text (optional: the page) and count',
  }),
  url: z.string().max(2048, 'Enter a URL of 2048 characters or fewer.').optional().meta({
    description:
      'goto: an absolute http(s) URL; wait_for and assert url: a part the page URL contains. May hold {{variables.x}}',
  }),
  value: z.string().max(4096, 'Enter a value of 4096 characters or fewer.').optional().meta({
    description:
      'fill: the text typed; select: the option value; press: the key ("Enter", "Control+A"). May hold {{variables.x}}',
  }),
  text: text('text', 1024).optional().meta({
    description:
      'wait_for and assert text: text the page (or the selector) shows; assert title: a part of the title',
  }),
  subject: z.enum(ASSERT_SUBJECTS).optional().meta({
    description:
      'assert only: what it checks: text (text, selector?), title (text), url (url), count (selector, count, op?)',
  }),
  count: z.number().int().min(0).max(10_000).optional().meta({
    description: 'assert count: the number of elements the selector matches',
  }),
  op: z.enum(COUNT_OPS).optional().meta({ description: 'assert count: eq (default), gte or lte' }),
  timeout_ms: z.number().int().min(100).max(60_000).optional().meta({
    description: "This step's own budget; absent: 10 s, cut to what is left of the check's timeout_ms",
  }),
});

type BrowserStep = z.output<typeof step>;

/** The fields each action (and each assert subject) takes: required, and optional. */
const FIELDS: Record<string, { required: (keyof BrowserStep)[]; optional: (keyof BrowserStep)[] }> = {
  goto: { required: ['url'], optional: [] },
  click: { required: ['selector'], optional: [] },
  fill: { required: ['selector', 'value'], optional: [] },
  press: { required: ['value'], optional: ['selector'] },
  select: { required: ['selector', 'value'], optional: [] },
  screenshot: { required: [], optional: [] },
  'assert:text': { required: ['subject', 'text'], optional: ['selector'] },
  'assert:title': { required: ['subject', 'text'], optional: [] },
  'assert:url': { required: ['subject', 'url'], optional: [] },
  'assert:count': { required: ['subject', 'selector', 'count'], optional: ['op'] },
};
const STEP_FIELDS = ['selector', 'url', 'value', 'text', 'subject', 'count', 'op'] as const;

/** Why a step's fields do not fit its action, as [field, message], or undefined. */
function stepProblem(s: BrowserStep): [string, string] | undefined {
  if (s.action === 'wait_for') {
    const given = (['selector', 'text', 'url'] as const).filter((f) => s[f] !== undefined);
    if (given.length !== 1) return ['action', 'wait_for takes exactly one of selector, text or url.'];
    const extra = STEP_FIELDS.find((f) => s[f] !== undefined && f !== given[0]);
    return extra ? [extra, `wait_for does not take ${extra}.`] : undefined;
  }
  if (s.action === 'assert' && s.subject === undefined)
    return ['subject', 'assert takes a subject: text, title, url or count.'];
  const key = s.action === 'assert' ? `assert:${s.subject}` : s.action;
  const fields = FIELDS[key];
  if (!fields) return ['action', `Use one of: ${BROWSER_ACTIONS.join(', ')}.`];
  const missing = fields.required.find((f) => s[f] === undefined);
  if (missing) return [missing, `${key.replace(':', ' ')} takes ${missing}.`];
  const extra = STEP_FIELDS.find(
    (f) => s[f] !== undefined && !fields.required.includes(f) && !fields.optional.includes(f),
  );
  if (extra) return [extra, `${key.replace(':', ' ')} does not take ${extra}.`];
  if (s.action === 'goto' && !/^https?:\/\/[^/{}\s]/i.test(s.url ?? ''))
    return ['url', 'Enter an absolute http:// or https:// URL (references may follow the host).'];
  return undefined;
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
};

/** The request's config: each step's fields fit its action, the first is a goto, references name variables. */
export const browserInput = z.strictObject(inputShape).superRefine((config, ctx) => {
  if (config.steps[0] && config.steps[0].action !== 'goto')
    ctx.addIssue({ code: 'custom', path: ['steps', 0, 'action'], message: 'Start with a goto step.' });
  config.steps.forEach((s, index) => {
    const problem = stepProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', path: ['steps', index, problem[0]], message: problem[1] });
    for (const field of ['selector', 'url', 'value', 'text'] as const) {
      for (const ref of references(s[field] ?? '')) {
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
  steps: z.array(
    z.object({
      action: z.enum(BROWSER_ACTIONS),
      selector: z.string().optional(),
      url: z.string().optional(),
      value: z.string().optional(),
      text: z.string().optional(),
      subject: z.enum(ASSERT_SUBJECTS).optional(),
      count: z.number().int().optional(),
      op: z.enum(COUNT_OPS).optional(),
      timeout_ms: z.number().int().optional(),
    }),
  ),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }).optional(),
});

export type BrowserConfig = z.output<typeof browserInput>;

/** The config as the Check responses show it: a secret variable's value reads `********`. */
export const browserView = z.strictObject(inputShape);
