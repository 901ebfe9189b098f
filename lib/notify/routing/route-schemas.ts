import * as z from 'zod';
import { type NamedEntity, namedEntitySchema } from '../../catalog/entities.ts';
import { slugSchema } from '../../domain/formats.ts';
import { documentedAs, idSchema, namesResource, timestampSchema } from '../../http/route-schemas.ts';
import { GROUP_BYS, type RouteRecord } from '../items/route-items.ts';

/** Request and response shapes of /v1/notify/routes (DECISIONS.md "Operations features (wave 3)"). */

/** Bounds: every alert of the tenant reads its routes, so each stays small. */
export const MAX_ROUTE_BLUEPRINTS = 50;
export const MAX_ROUTE_ENTITIES = 100;
export const MAX_ROUTE_CHANNELS = 10;
const MIN_ESCALATE_SECONDS = 60;
const MAX_ESCALATE_SECONDS = 7 * 86_400;

const MAX_GROUP_WAIT_SECONDS = 300;
const MIN_GROUP_INTERVAL_SECONDS = 60;
const MAX_GROUP_INTERVAL_SECONDS = 3600;

export const ROUTE_STATES = ['down', 'degraded', 'up', 'unknown'] as const;

const routeIdSchema = namesResource(idSchema('rte'), 'route');
export const routeParams = z.object({ id: routeIdSchema });

const channelIds = z
  .array(idSchema('chn'))
  .max(MAX_ROUTE_CHANNELS, `must name at most ${MAX_ROUTE_CHANNELS} channels`);

/** A route's name: its identity in configuration documents (unique in the tenant). */
const MAX_ROUTE_NAME_LENGTH = 100;
export const routeNameSchema = z
  .string()
  .regex(/\S/, 'This field is required.')
  .trim()
  .min(1, 'This field is required.')
  .max(MAX_ROUTE_NAME_LENGTH, `Use at most ${MAX_ROUTE_NAME_LENGTH} characters.`);

/** The fields of a route as posted (routeInputSchema). */
const routeFields = {
  name: routeNameSchema
    .optional()
    .meta({ description: 'Unique in the tenant; what configuration documents name the route by' }),
  match: z
    .strictObject({
      blueprint_slugs: z
        .array(slugSchema())
        .max(MAX_ROUTE_BLUEPRINTS, `must name at most ${MAX_ROUTE_BLUEPRINTS} blueprints`)
        .optional()
        .meta({ description: 'Entities of these blueprints; absent or empty: any' }),
      entity_ids: z
        .array(idSchema('ent'))
        .max(MAX_ROUTE_ENTITIES, `must name at most ${MAX_ROUTE_ENTITIES} entities`)
        .optional()
        .meta({ description: 'These entities; absent or empty: any' }),
      to_states: z.array(z.enum(ROUTE_STATES)).max(ROUTE_STATES.length).optional().meta({
        description: 'Changes to these states (a recovery is a change to up); absent or empty: any',
      }),
    })
    .default({})
    .meta({ description: 'Every criterion given must hold; none given: every alert of the tenant' }),
  channel_ids: channelIds.default([]).meta({ description: 'Tenant channels the matching alerts also go to' }),
  escalate_after_seconds: z
    .int()
    .min(MIN_ESCALATE_SECONDS)
    .max(MAX_ESCALATE_SECONDS)
    .optional()
    .meta({ description: 'An incident unacknowledged this long is sent once to escalate_channel_ids' }),
  escalate_channel_ids: channelIds.optional().meta({ description: 'Tenant channels to escalate to' }),
  escalation_policy_id: idSchema('esp')
    .nullable()
    .optional()
    .meta({ description: 'An escalation policy the incidents of matching alerts climb until acknowledged' }),
  page_owner_policy: z.boolean().default(false).meta({
    description:
      'The incidents of matching alerts climb the escalation policy of the team owning the entity (owned_by, else its blueprint’s default owner)',
  }),
  group_by: z.enum(GROUP_BYS).default('entity').meta({
    description: 'What one notification groups: each entity alone (default), its blueprint, or the tenant',
  }),
  group_wait_seconds: z.int().min(0).max(MAX_GROUP_WAIT_SECONDS).default(0).meta({
    description:
      'The first notification of a new group waits this long, collecting (Alertmanager group_wait)',
  }),
  group_interval_seconds: z
    .int()
    .min(MIN_GROUP_INTERVAL_SECONDS)
    .max(MAX_GROUP_INTERVAL_SECONDS)
    .default(300)
    .meta({
      description: 'Updates of a group already notified go out at most this often (group_interval)',
    }),
};

/**
 * A route as the OpenAPI document states it: channels to send to, or an escalation (its channels
 * and its delay together), or both. What no schema says (the ids name the tenant's channels and
 * entities) stays routeInputSchema's.
 */
const { escalate_after_seconds: _after, escalate_channel_ids: _escalate, ...directFields } = routeFields;
const documentedRoute = z.union([
  z.strictObject({
    ...directFields,
    channel_ids: channelIds.min(1).meta({ description: 'Tenant channels the matching alerts go to' }),
  }),
  z.strictObject({
    ...routeFields,
    escalate_after_seconds: routeFields.escalate_after_seconds.unwrap(),
    escalate_channel_ids: channelIds.min(1).meta({ description: 'Tenant channels to escalate to' }),
  }),
  z.strictObject({
    ...directFields,
    escalation_policy_id: idSchema('esp').meta({
      description: 'An escalation policy the incidents of matching alerts climb until acknowledged',
    }),
  }),
  z.strictObject({ ...directFields, page_owner_policy: z.literal(true) }),
]);

/** POST /v1/notify/routes. */
export const routeInputSchema = z
  .strictObject(routeFields)
  .superRefine((body, ctx) => {
    const escalates = (body.escalate_channel_ids ?? []).length > 0;
    const pages = Boolean(body.escalation_policy_id) || body.page_owner_policy;
    if (body.channel_ids.length === 0 && !escalates && !pages)
      ctx.addIssue({
        code: 'custom',
        path: ['channel_ids'],
        message: 'must name at least one channel (or an escalation policy)',
      });
    if (escalates !== (body.escalate_after_seconds !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: [escalates ? 'escalate_after_seconds' : 'escalate_channel_ids'],
        message: 'escalate_after_seconds and escalate_channel_ids go together',
      });
  })
  .meta({ id: 'NotificationRouteInput' });
documentedAs(routeInputSchema, documentedRoute);
export type RouteInput = z.output<typeof routeInputSchema>;

export const publicRouteSchema = z
  .strictObject({
    id: idSchema('rte'),
    name: z.string().nullable().meta({ description: 'The route’s name; null when it was given none' }),
    match: z.strictObject({
      blueprint_slugs: z.array(z.string()),
      entity_ids: z.array(idSchema('ent')),
      to_states: z.array(z.string()),
    }),
    entities: z.array(namedEntitySchema).meta({
      description: 'The entities match.entity_ids names that still exist, with their names and addresses',
    }),
    channel_ids: z.array(idSchema('chn')),
    escalate_after_seconds: z.number().int().nullable(),
    escalate_channel_ids: z.array(idSchema('chn')),
    escalation_policy_id: idSchema('esp').nullable(),
    page_owner_policy: z.boolean(),
    group_by: z.enum(GROUP_BYS),
    group_wait_seconds: z.number().int(),
    group_interval_seconds: z.number().int(),
    created_at: timestampSchema,
  })
  .meta({ id: 'NotificationRoute' });

export const routesListSchema = z.strictObject({ routes: z.array(publicRouteSchema) });

/** A route as the API shows it (its record less the tenant), its entities named by `named` (entityNamer). */
export function publicRoute(
  route: RouteRecord,
  named: (entityIds: readonly string[]) => NamedEntity[],
): z.output<typeof publicRouteSchema> {
  return {
    id: route.id,
    name: route.name ?? null,
    match: route.match,
    entities: named(route.match.entity_ids),
    channel_ids: route.channel_ids,
    escalate_after_seconds: route.escalate_after_seconds,
    escalate_channel_ids: route.escalate_channel_ids,
    escalation_policy_id: route.escalation_policy_id,
    page_owner_policy: route.page_owner_policy,
    group_by: route.group_by,
    group_wait_seconds: route.group_wait_seconds,
    group_interval_seconds: route.group_interval_seconds,
    created_at: route.created_at,
  };
}
