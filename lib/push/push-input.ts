import { z } from 'zod';

/** Body of POST /v1/checks/{id}/results (SPEC.md Push result). */
export const pushResultBody = z.strictObject({
  success: z.boolean(),
  // The range comes before int(): a huge number reads as one problem (too big), not also an unsafe integer.
  latency_ms: z.number().min(0).max(86_400_000).int(),
  error_message: z.string().max(4096).optional(),
  checked_at: z.iso.datetime({ offset: true }).optional(),
  status_code: z.number().int().min(0).max(999).optional(),
});
export type PushResultBody = z.infer<typeof pushResultBody>;
