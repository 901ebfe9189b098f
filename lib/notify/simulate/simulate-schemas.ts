import * as z from 'zod';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';

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
      to_state: toState.optional().meta({
        description: 'The state the entity would change to now; absent: no decisions, only channels',
      }),
    }),
  ])
  .meta({ description: 'Exactly one of check_id and entity_id, and to_state (optional with entity_id)' });

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

const channelTruthSchema = z.strictObject({
  channel_id: idSchema('chn'),
  channel_name: z.string(),
  channel_type: z.string(),
  last_told: z
    .strictObject({
      state: z.string().meta({ description: 'The entity state the channel was last told' }),
      at: timestampSchema.meta({ description: 'When it was told' }),
      kind: z
        .string()
        .meta({ description: 'The message that told it (alert, also_failing, escalation, flapping)' }),
    })
    .nullable()
    .meta({ description: 'The last word the channel was sent about the entity; null: never told anything' }),
  held: z
    .strictObject({
      by: z.enum(['cooldown', 'maintenance', 'flapping', 'upstream', 'group', 'silenced', 'recovery_off']),
      until: timestampSchema.nullable().meta({
        description:
          'When the hold ends; null: no end (silenced, recovery_off) or until the upstream recovers',
      }),
    })
    .nullable()
    .meta({
      description:
        'Why the channel does not know the entity’s state yet (its last word differs, or waits in a group’s batch); null: it knows it, or nothing holds it back (the re-judge is due)',
    }),
});

export const simulateResponse = z
  .strictObject({
    entity: z.strictObject({
      id: idSchema('ent'),
      name: z.string(),
      state: z.enum(['up', 'degraded', 'down', 'unknown']),
    }),
    to_state: toState.nullable().meta({ description: 'null: none was asked (no decisions)' }),
    decisions: z.array(decisionSchema),
    channels: z.array(channelTruthSchema).meta({
      description:
        'Visible truth: each channel the entity’s state reaches now or that was told anything of it, its last word and what holds the state back',
    }),
  })
  .meta({ id: 'AlertSimulation' });
