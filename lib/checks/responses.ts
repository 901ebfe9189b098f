import { z } from 'zod';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import { checkSchema, resultSchema, transitionSchema } from './records.ts';

/** Response bodies of the check routes: publicCheck, publicResult and publicTransition as schemas. */

const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` for the next page; null on the last page' });

/** A check as publicCheck returns it: internal keys out, header values redacted. */
export const publicCheckSchema = z
  .strictObject({
    ...checkSchema.omit({
      tenant_id: true,
      blueprint_slug: true,
      entity_slug: true,
      version: true,
      state_version: true,
      last_push_at: true,
      current_rollup: true,
    }).shape,
    id: idSchema('chk'),
    entity_id: idSchema('ent'),
    headers: z.record(z.string(), z.literal('********')).meta({ description: 'Values are always redacted' }),
    last_result_at: timestampSchema.nullable(),
    next_run_at: timestampSchema.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Check' });

/** A result as publicResult returns it. */
export const publicResultSchema = z
  .strictObject({
    ...resultSchema.shape,
    id: idSchema('res'),
    check_id: idSchema('chk'),
    checked_at: timestampSchema,
    synthetic: z
      .literal(true)
      .optional()
      .meta({ description: "Recorded by the service (dead man's switch), not probed or pushed" }),
  })
  .meta({ id: 'Result' });

/** A transition as publicTransition returns it. */
export const publicTransitionSchema = z
  .strictObject({
    ...transitionSchema.pick({
      kind: true,
      check_id: true,
      from_state: true,
      to_state: true,
      reason: true,
    }).shape,
    id: idSchema('trn'),
    entity_id: idSchema('ent'),
    created_at: timestampSchema,
  })
  .meta({ id: 'Transition' });

/** GET /v1/checks/{id}/results. */
export const resultsPageSchema = z.strictObject({
  results: z.array(publicResultSchema),
  next_cursor: nextCursor,
});

/** GET /v1/checks/{id}/transitions and GET /v1/status/transitions. */
export const transitionsPageSchema = z.strictObject({
  transitions: z.array(publicTransitionSchema),
  next_cursor: nextCursor,
});

/** GET /v1/checks/{id}/sparkline: buckets oldest first. */
export const sparklineSchema = z.strictObject({
  check_id: idSchema('chk'),
  start: timestampSchema,
  end: timestampSchema,
  buckets: z.array(
    z.strictObject({
      start: timestampSchema,
      total: z.number().int(),
      failures: z.number().int(),
      p50_latency_ms: z.number().nullable(),
      max_latency_ms: z.number().nullable(),
    }),
  ),
});
