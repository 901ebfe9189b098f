import { z } from 'zod';
import { publicEntitySchema } from '../catalog/responses.ts';
import { checkCommonSchema } from '../checks/responses.ts';

/** GET /v1/status: every entity with its state and its enabled checks' states, and counts per state. */
export const statusBoardSchema = z.strictObject({
  entities: z.array(
    z.strictObject({
      ...publicEntitySchema.pick({ id: true, blueprint_slug: true, slug: true, name: true, state: true })
        .shape,
      checks: z.array(
        z.strictObject(checkCommonSchema.pick({ id: true, check_type: true, state: true }).shape),
      ),
    }),
  ),
  total: z.number().int(),
  up: z.number().int(),
  degraded: z.number().int(),
  down: z.number().int(),
  unknown: z.number().int(),
});
