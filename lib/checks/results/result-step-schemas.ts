import * as z from 'zod';

/**
 * What a scripted check's result adds to its details (lib/checks/responses.ts): each step of a
 * multistep or browser run, and a browser run's Web Vitals.
 */

export const resultStepsSchema = z
  .array(
    z.union([
      z
        .object({
          name: z.string(),
          outcome: z.enum(['passed', 'degraded', 'failed', 'skipped']),
          status_code: z.number().int(),
          error: z.string().optional().meta({ description: 'Why it failed or is degraded' }),
          timings: z
            .object({
              dns_ms: z.number().int().optional(),
              connect_ms: z.number().int().optional(),
              tls_ms: z.number().int().optional(),
              first_byte_ms: z.number().int().optional(),
              total_ms: z.number().int(),
            })
            .optional()
            .meta({
              description: "Whole ms of each phase of the step's last hop, and of the whole step",
            }),
        })
        .meta({ id: 'ApiStepResult', description: "A multistep check's step" }),
      z
        .object({
          action: z.string().meta({ description: "The step's action: goto, click, fill, …" }),
          outcome: z.enum(['passed', 'failed', 'skipped']),
          ms: z.number().int().meta({ description: 'Whole ms the step took' }),
          error: z.string().optional().meta({ description: 'Why it failed' }),
        })
        .meta({ id: 'BrowserStepResult', description: "A browser check's step" }),
    ]),
  )
  .optional()
  .meta({
    description: 'multistep, browser: each step in order; those after the first failure are skipped',
  });

export const resultVitalsSchema = z
  .object({
    lcp_ms: z.number().optional().meta({ description: 'Largest Contentful Paint, ms' }),
    cls: z.number().optional().meta({ description: 'Cumulative Layout Shift' }),
    ttfb_ms: z.number().optional().meta({ description: 'Time to first byte of the last document, ms' }),
  })
  .optional()
  .meta({
    description: "browser: the last page's Web Vitals (each absent when the page did not report it)",
  });

export const resultArtifactsSchema = z
  .array(
    z
      .object({
        step: z
          .number()
          .int()
          .optional()
          .meta({ description: "A screenshot's step, one-based (a trace has none)" }),
        kind: z.enum(['screenshot', 'trace']),
        name: z.string().meta({ description: 'Its name under the result (step-<n>.jpg, trace.zip)' }),
        url: z.string().meta({
          description:
            'Where to GET it with the tenant key (a screenshot image/jpeg, a trace application/zip)',
        }),
      })
      .meta({ id: 'ResultArtifact', description: 'A stored artifact of the result (never its bytes)' }),
  )
  .optional()
  .meta({
    description:
      "browser: the screenshots of each screenshot step and of the failing step, and the run's Playwright trace when the check's trace option kept one; kept for the retention",
  });

export const resultTraceLeftOutSchema = z.string().optional().meta({
  description:
    "browser: why the trace the check's trace option asked for is not kept (larger than the bound)",
});

export const resultOutsideAlertSchema = z
  .object({
    alert_id: z.string(),
    dedup_key: z.string(),
    links: z.array(z.object({ href: z.string(), text: z.string() })),
  })
  .optional()
  .meta({
    description:
      'outside: the worst open alert, whose summary is the error message, with its links back to its sender (GET /v1/outside-alerts has it whole)',
  });
