import * as z from 'zod';

// The range comes before int(): a huge number reads as one problem (too big), not also an unsafe integer.
const latencyMs = z.number().min(0).max(86_400_000).int();

const common = {
  error_message: z.string().max(4096).optional(),
  checked_at: z.iso.datetime({ offset: true }).optional(),
  status_code: z.number().int().min(0).max(999).optional(),
};

/**
 * Body of POST /v1/checks/{id}/results (SPEC.md Push result). A success carries its latency_ms; a
 * failure may leave it out (a job that failed has no latency worth reporting): it is stored as 0.
 */
export const pushResultBody = z.discriminatedUnion(
  'success',
  [
    z.strictObject({ success: z.literal(true), latency_ms: latencyMs, ...common }),
    z.strictObject({
      success: z.literal(false),
      latency_ms: latencyMs
        .optional()
        .meta({ description: 'Optional for a failure; stored as 0 when left out' }),
      ...common,
    }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? 'Use true or false.' : undefined) },
);
export type PushResultBody = z.infer<typeof pushResultBody>;
