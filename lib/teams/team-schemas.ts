import * as z from 'zod';
import { slugSchema } from '../domain/formats.ts';
import { idSchema } from '../http/route-schemas.ts';
import { TEAM_LIMITS } from './team-items.ts';

/** Request shapes of the team and who-is-on-call routes; unknown fields are rejected (400). */

export const teamParams = z.object({ id: idSchema('team') });
export const teamEntityParams = z.object({ id: idSchema('team'), entity_id: idSchema('ent') });

/** Refuses a list naming the same value twice, at the second one's path. */
const distinct = <T>(list: T[], ctx: z.RefinementCtx) => {
  list.forEach((value, i) => {
    if (list.indexOf(value) !== i) ctx.addIssue({ code: 'custom', path: [i], message: 'Listed twice.' });
  });
};

/** A team as created or replaced. */
export const teamBody = z.strictObject({
  name: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(100),
  members: z
    .array(z.string().min(1).max(64))
    .max(TEAM_LIMITS.members)
    .superRefine(distinct)
    .default([])
    .meta({ description: 'User ids of members of this account' }),
  escalation_policy_id: idSchema('esp').nullable().default(null).meta({
    description:
      'The team’s escalation policy: routes that page the owner’s policy climb it, and who_is_on_call answers from its first step’s schedule',
  }),
  schedule_id: idSchema('sch')
    .nullable()
    .default(null)
    .meta({ description: 'The team’s on-call schedule: who_is_on_call answers from it' }),
  default_owner_of: z.array(slugSchema()).max(TEAM_LIMITS.blueprints).superRefine(distinct).default([]).meta({
    description:
      'Blueprint slugs: their entities with no owned_by relation to a team are this team’s (one team per blueprint)',
  }),
});
export type TeamBody = z.output<typeof teamBody>;

/** POST /v1/teams/{id}/entities: the entity the team owns (an owned_by relation to the team). */
export const ownedEntityBody = z.strictObject({ entity_id: idSchema('ent') });

const instant = z.iso
  .datetime({ offset: true, message: 'Give a time as ISO 8601 with a zone (…Z).' })
  .meta({ description: 'ISO 8601; default now' });

/** GET /v1/oncall: at most one of entity_id, team_id and schedule_id (none: every team); `at` optional. */
export const whoQuery = z
  .strictObject({
    entity_id: idSchema('ent')
      .optional()
      .meta({ description: 'Who is on call for this entity (its owning teams)' }),
    team_id: idSchema('team').optional().meta({ description: 'Who is on call for this team' }),
    schedule_id: idSchema('sch').optional().meta({ description: 'Who is on call in this schedule' }),
    at: instant.optional(),
  })
  .superRefine((q, ctx) => {
    const given = (['entity_id', 'team_id', 'schedule_id'] as const).filter((k) => q[k] !== undefined);
    if (given.length <= 1) return;
    ctx.addIssue({
      code: 'custom',
      path: [given[1] ?? 'entity_id'],
      message: 'Give at most one of entity_id, team_id and schedule_id.',
    });
  });
export type WhoQuery = z.output<typeof whoQuery>;
