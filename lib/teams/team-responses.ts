import * as z from 'zod';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';

/** Response bodies of the team and who-is-on-call routes: people and entities named, not bare ids. */

const personSchema = z
  .strictObject({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() })
  .meta({
    id: 'TeamPerson',
    description: 'A member; name and email are null for someone no longer in the account',
  });

const entityRefSchema = z
  .strictObject({ id: idSchema('ent'), name: z.string(), slug: z.string(), blueprint_slug: z.string() })
  .meta({ id: 'EntityRef' });

const named = (prefix: string) => z.strictObject({ id: idSchema(prefix), name: z.string() });

export const publicTeamSchema = z
  .strictObject({
    id: idSchema('team'),
    name: z.string(),
    members: z.array(personSchema),
    escalation_policy_id: z.string().nullable(),
    schedule_id: idSchema('sch').nullable(),
    default_owner_of: z.array(z.string()),
    owns: z
      .array(z.strictObject({ relation_id: idSchema('rel'), entity: entityRefSchema }))
      .meta({ description: 'The entities with an owned_by relation to the team, oldest first' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Team' });
export type PublicTeam = z.infer<typeof publicTeamSchema>;

export const teamListSchema = z.strictObject({ teams: z.array(publicTeamSchema) });

/** POST /v1/teams/{id}/entities: the owned_by relation from the entity to the team. */
export const teamRelationSchema = z
  .strictObject({
    id: idSchema('rel'),
    relation_type: z.literal('owned_by'),
    from_entity_id: idSchema('ent'),
    from_entity: entityRefSchema,
    to_team_id: idSchema('team'),
    to_team: named('team'),
    created_at: timestampSchema,
  })
  .meta({ id: 'TeamRelation' });
export type TeamRelationView = z.infer<typeof teamRelationSchema>;

/** One way to someone on call: the team (and how it owns the entity), its schedule, who. */
const onCallRowSchema = z.strictObject({
  path: z.strictObject({
    ownership: z
      .enum(['owned_by', 'blueprint_default'])
      .nullable()
      .meta({ description: 'How the team owns the entity; null when not asked by entity' }),
    team: named('team').nullable(),
    schedule: named('sch').nullable(),
  }),
  user: personSchema.nullable().meta({ description: 'Null when nobody is on call this way then' }),
  layer: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  override_id: z.string().nullable(),
  until: timestampSchema
    .nullable()
    .meta({ description: 'When that changes; null: unknown or not within 35 days' }),
  note: z.string().nullable().meta({ description: 'Why nobody is on call this way, in words' }),
});
export type OnCallRow = z.infer<typeof onCallRowSchema>;

export const whoIsOnCallSchema = z
  .strictObject({
    at: timestampSchema,
    entity: entityRefSchema.nullable(),
    on_call: z.array(onCallRowSchema).meta({
      description: 'One row per owning team (or the team or schedule asked for; or every team, oldest first)',
    }),
    note: z
      .string()
      .nullable()
      .meta({ description: 'Why there is no row: the entity has no owning team, or the account no team' }),
  })
  .meta({ id: 'WhoIsOnCall' });
export type WhoIsOnCall = z.infer<typeof whoIsOnCallSchema>;
