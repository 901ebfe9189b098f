import * as z from 'zod';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import { POLICY_LIMITS, type PolicyRecord } from './policy-items.ts';

/** Request and response shapes of /v1/escalation-policies; unknown fields are rejected (400). */

export const policyParams = z.object({ id: idSchema('esp') });

const targetBody = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('schedule'), id: idSchema('sch') }),
  z.strictObject({ type: z.literal('user'), id: z.string().min(1).max(64) }),
  z.strictObject({ type: z.literal('channel'), id: idSchema('chn') }),
  z.strictObject({ type: z.literal('team'), id: idSchema('team') }),
]);

const stepBody = z.strictObject({
  delay_seconds: z.int().min(0).max(POLICY_LIMITS.maxDelaySeconds).meta({
    description:
      'How long this step waits for an acknowledgement before the next step is paged (after the last: the next round)',
  }),
  targets: z.array(targetBody).min(1).max(POLICY_LIMITS.targetsPerStep).meta({
    description:
      'Who this step pages: a schedule’s on-call person, a person, a channel, or every member of a team',
  }),
});

/** A policy as created or replaced. */
export const policyBody = z.strictObject({
  name: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(100),
  steps: z.array(stepBody).min(1).max(POLICY_LIMITS.steps).meta({
    description: 'The ladder, climbed in order from the first step (paged at once) until acknowledged',
  }),
  repeat: z.int().min(0).max(POLICY_LIMITS.maxRepeat).default(0).meta({
    description: 'How many more times the ladder is climbed from the first step after the last',
  }),
});
export type PolicyBody = z.output<typeof policyBody>;

const targetView = z.discriminatedUnion('type', [
  z.strictObject({ type: z.enum(['schedule', 'channel', 'team']), id: z.string() }),
  z.strictObject({
    type: z.literal('user'),
    id: z.string(),
    email: z.string().nullable().meta({
      description:
        'The person’s address, as schedules and teams show their members (what configuration as code names them by); null for someone no longer in the account',
    }),
  }),
]);

export const publicPolicySchema = z
  .strictObject({
    id: idSchema('esp'),
    name: z.string(),
    steps: z.array(z.strictObject({ delay_seconds: z.number().int(), targets: z.array(targetView) })),
    repeat: z.number().int(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'EscalationPolicy' });
export type PublicPolicy = z.infer<typeof publicPolicySchema>;

export const policyListSchema = z.strictObject({ escalation_policies: z.array(publicPolicySchema) });

/** A policy as the API shows it: its record less the tenant and version, each person with the address `emailOf` knows. */
export function publicPolicy(record: PolicyRecord, emailOf: (userId: string) => string | null): PublicPolicy {
  return {
    id: record.id,
    name: record.name,
    steps: record.steps.map((step) => ({
      delay_seconds: step.delay_seconds,
      targets: step.targets.map((t) =>
        t.type === 'user' ? { type: t.type, id: t.id, email: emailOf(t.id) } : { type: t.type, id: t.id },
      ),
    })),
    repeat: record.repeat,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
