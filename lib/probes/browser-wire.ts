import * as z from 'zod';

/** A browser step's actions, an assert's subjects and a count's comparisons (the config's schema reads them). */
export const BROWSER_ACTIONS = [
  'goto',
  'click',
  'fill',
  'press',
  'select',
  'wait_for',
  'assert',
  'screenshot',
] as const;
export const ASSERT_SUBJECTS = ['text', 'title', 'url', 'count'] as const;
export const COUNT_OPS = ['eq', 'gte', 'lte'] as const;
/** When a run records a Playwright trace: never, only when a step failed, every run. */
export const TRACE_MODES = ['off', 'on_failure', 'always'] as const;

/**
 * What the browser runner's child process (./browser/browser-child.ts) reads on stdin and writes on
 * stdout, parsed on both sides: the check's steps with their references already filled (the
 * child sees this check's values only, never a variable's name or another check's), and the run's
 * step log, vitals, screenshots and (when asked) its trace, the check's secrets masked in it.
 */

/** One step in its flat form, as stored and as the child reads it (lenient: unknown keys dropped). */
export const browserStepSchema = z.object({
  action: z.enum(BROWSER_ACTIONS),
  selector: z.string().optional(),
  url: z.string().optional(),
  value: z.string().optional(),
  text: z.string().optional(),
  subject: z.enum(ASSERT_SUBJECTS).optional(),
  count: z.number().int().optional(),
  op: z.enum(COUNT_OPS).optional(),
  timeout_ms: z.number().int().optional(),
});
/** The page size in CSS pixels. */
export const viewportSchema = z.object({ width: z.number().int(), height: z.number().int() });

export const runRequestSchema = z.object({
  steps: z.array(browserStepSchema),
  viewport: viewportSchema.optional(),
  /** The ms the steps may take together. */
  timeoutMs: z.number().int().min(1),
  allowPrivate: z.boolean(),
  executablePath: z.string(),
  /** Switches that Chromium build needs where it runs (the Lambda's: one process, no zygote). */
  extraArgs: z.array(z.string()).optional(),
  /** Whether to record a Playwright trace (absent: off). */
  trace: z.enum(TRACE_MODES).optional(),
  /** The check's secret values: masked in the trace before it leaves the child. */
  secrets: z.array(z.string()).optional(),
});
export type RunRequest = z.output<typeof runRequestSchema>;
export type RunStep = RunRequest['steps'][number];

export const runAnswerSchema = z.object({
  steps: z.array(
    z.object({
      action: z.string(),
      outcome: z.enum(['passed', 'failed', 'skipped']),
      ms: z.number().int().min(0),
      error: z.string().optional(),
    }),
  ),
  vitals: z.object({
    lcp_ms: z.number().optional(),
    cls: z.number().optional(),
    ttfb_ms: z.number().optional(),
  }),
  /** JPEG screenshots, base64: each `screenshot` step's and the failing step's. */
  screenshots: z.array(z.object({ step: z.number().int().min(0), jpeg: z.string() })),
  /** The Playwright trace (a zip, base64), its secrets masked; when the check asked for it. */
  trace: z.string().optional(),
  /** Why a trace that was recorded is not here (larger than the bound). */
  traceLeftOut: z.string().optional(),
});
export type BrowserRunAnswer = z.output<typeof runAnswerSchema>;
