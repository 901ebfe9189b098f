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
 * A browser check's steps and page as stored and as the runner's child reads them (the run's own
 * request and answer are ./browser-run-wire.ts, which only the runner and its child load).
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
