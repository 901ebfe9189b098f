import * as z from 'zod';
import { publicResultSchema } from '../responses.ts';

/** POST /v1/checks/run-draft's answer (./draft-run.ts): what a draft's one probe saw; nothing was stored. */
export const draftRunSchema = z
  .strictObject({
    stored: z.literal(false).meta({ description: 'A draft run is never stored' }),
    ...publicResultSchema.pick({
      checked_at: true,
      outcome: true,
      success: true,
      degraded: true,
      status_code: true,
      latency_ms: true,
      error_message: true,
      details: true,
    }).shape,
    outcome: z.enum(['up', 'degraded', 'down']),
    screenshots: z
      .array(
        z
          .strictObject({
            step: z.number().int().meta({ description: 'The step it was taken at, one-based' }),
            jpeg: z.string().meta({ description: 'The JPEG, base64' }),
          })
          .meta({ id: 'DraftScreenshot' }),
      )
      .optional()
      .meta({
        description:
          "browser: each screenshot step's and the failing step's screenshot, inline (a draft stores nothing); at most 3 MiB of base64, the failing step's kept first",
      }),
    screenshots_left_out: z
      .number()
      .int()
      .optional()
      .meta({ description: 'browser: screenshots the bound left out, the earliest first' }),
  })
  .meta({ id: 'DraftRun' });
