import * as z from 'zod';
import { browserStepSchema, TRACE_MODES, viewportSchema } from './browser-wire.ts';

/**
 * What the browser runner's child process (./browser/browser-child.ts) reads on stdin and writes on
 * stdout, parsed on both sides: the check's steps with their references already filled (the
 * child sees this check's values only, never a variable's name or another check's), and the run's
 * step log, vitals, screenshots and (when asked) its trace, the check's secrets masked in it. A
 * file apart from the steps' schemas (./browser-wire.ts), so that what reads a stored check
 * (the cloud's worker) does not carry it.
 */

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
  trace_left_out: z.string().optional(),
  /** Why Chromium's sandbox could not start, when the run went on without it (the host refused it). */
  sandbox_refused: z.string().max(500).optional(),
});
export type BrowserRunAnswer = z.output<typeof runAnswerSchema>;
