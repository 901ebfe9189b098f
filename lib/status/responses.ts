import * as z from 'zod';
import { publicEntitySchema } from '../catalog/services.ts';
import { checkCommonSchema } from '../checks/responses.ts';

/** GET /v1/status: entities (all, filtered, or a page) with their checks' states, and tenant-wide counts per state. */
export const statusBoardSchema = z.strictObject({
  entities: z.array(
    z.strictObject({
      ...publicEntitySchema.pick({ id: true, blueprint_slug: true, slug: true, name: true, state: true })
        .shape,
      in_maintenance: z.boolean().meta({ description: 'A maintenance window covers the entity now' }),
      checks: z.array(
        z.strictObject(checkCommonSchema.pick({ id: true, check_type: true, state: true }).shape),
      ),
      recent: z
        .array(
          z.strictObject({
            at: z.string().meta({ description: 'When the results ran (a pull check: its slot)' }),
            state: z.enum(['up', 'degraded', 'down']).meta({
              description: "The worst of the entity's results at that time",
            }),
          }),
        )
        .optional()
        .meta({
          description:
            "With include=recent: the entity's newest result times across its checks, oldest first (at most 30)",
        }),
      uptime_24h: z.number().min(0).max(1).nullable().optional().meta({
        description:
          "With include=recent: the share of successful results in the last 24 hours across the entity's enabled checks (0 to 1); null with none",
      }),
      results_24h: z.number().int().optional().meta({
        description: "With include=recent: how many results the entity's checks hold in the last 24 hours",
      }),
    }),
  ),
  total: z.number().int(),
  up: z.number().int(),
  degraded: z.number().int(),
  down: z.number().int(),
  unknown: z.number().int(),
  untold: z.number().int().meta({
    description:
      'Of the entities in this answer, how many have a channel whose last word about them is not their state (a hold still running, or the truth not yet told); POST /v1/notify/simulate says which channel and why',
  }),
  next_cursor: z.string().nullable().meta({
    description: 'Continues the page (with the same filters and limit); null at the end or without limit',
  }),
});
