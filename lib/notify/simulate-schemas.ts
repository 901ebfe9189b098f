import * as z from 'zod';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';

/** Request and answer of POST /v1/notify/simulate (simulate.ts). */

const toState = z
  .enum(['up', 'down', 'degraded'])
  .meta({ description: 'The state the entity would change to now' });

/** Exactly one of check_id and entity_id: two strict objects, so one naming both matches neither. */
export const simulateBody = z
  .union([
    z.strictObject({
      check_id: idSchema('chk').meta({
        description: 'The check whose failure (or recovery) moves its entity',
      }),
      to_state: toState,
    }),
    z.strictObject({
      entity_id: idSchema('ent').meta({ description: 'The entity: each of its enabled checks is simulated' }),
      to_state: toState,
    }),
  ])
  .meta({ description: 'Exactly one of check_id and entity_id, and to_state' });

const nullableString = z.string().nullable();

const decisionSchema = z.strictObject({
  check_id: idSchema('chk').nullable().meta({ description: 'The check the change is simulated for' }),
  check_name: nullableString,
  kind: z.enum(['alert', 'escalation']).meta({
    description: 'alert: the change’s own alert; escalation: sent later if the incident stays unacknowledged',
  }),
  channel_id: idSchema('chn')
    .nullable()
    .meta({ description: 'null: the decision holds for no channel at all' }),
  channel_name: nullableString,
  channel_type: nullableString,
  path: z.enum(['own', 'attached', 'route']).nullable().meta({
    description: 'How the alert reaches the channel: the check’s own, attached to the check, or a route',
  }),
  route_id: idSchema('rte')
    .nullable()
    .meta({ description: 'The route that reaches the channel (path route)' }),
  outcome: z.enum(['send', 'skip', 'defer', 'fold', 'group']),
  reason: z.string().meta({ description: 'Why, in words (a skip names what the delivery log would)' }),
  due_at: timestampSchema.optional().meta({ description: 'defer: when it would be sent' }),
  escalation_at: timestampSchema.optional().meta({ description: 'escalation: when it is due' }),
  repeat_at: timestampSchema
    .optional()
    .meta({ description: 'A sent down alert whose policy repeats: the first repeat' }),
});

export const simulateResponse = z
  .strictObject({
    entity: z.strictObject({
      id: idSchema('ent'),
      name: z.string(),
      state: z.enum(['up', 'degraded', 'down', 'unknown']),
    }),
    to_state: toState,
    decisions: z.array(decisionSchema),
  })
  .meta({ id: 'AlertSimulation' });
