import * as z from 'zod';

/**
 * One location's part in a decided slot of a located check (lib/domain/quorum.ts
 * LocationOutcome), as results and the check's state store it.
 */
export const locationOutcomeSchema = z.object({
  location: z.string(),
  outcome: z.enum(['up', 'degraded', 'down', 'unknown']),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  error_message: z.string(),
});
