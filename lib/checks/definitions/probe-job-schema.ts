import * as z from 'zod';

/**
 * One scheduled run of a check: a probe (pull), the dead man's switch (push), or the decision of a
 * located check's slot at its deadline (../results/located-job.ts). Queue messages carry it.
 */
export const probeJobSchema = z.strictObject({
  tenant_id: z.string(),
  check_id: z.string(),
  kind: z.enum(['probe', 'deadman', 'decide']),
  /** The slot (ms) this job was claimed for: the idempotency key of its result. */
  slot_ms: z.number().int(),
  /** deadman: the claim's placeholder next_run_at (the job computes the real next deadline from the check). */
  next_run_at_ms: z.number().int().optional(),
  /** deadman: last_result_at when claimed; a result since then cancels the synthetic failure. */
  last_result_at: z.string().nullable().optional(),
  /** probe: a located check's manual run (POST /v1/checks/{id}/run); its locations' jobs say so. */
  manual: z.literal(true).optional(),
});
export type ProbeJob = z.infer<typeof probeJobSchema>;
