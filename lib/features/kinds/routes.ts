import * as z from 'zod';
import {
  type Api,
  ConfigApplyError,
  defineKind,
  expectOk,
  type NameIndex,
  type Reference,
  seg,
} from '../../config-doc/kind.ts';
import {
  GROUP_DEFAULTS,
  MAX_ROUTE_BLUEPRINTS,
  MAX_ROUTE_CHANNELS,
  MAX_ROUTE_ENTITIES,
  ROUTE_STATES,
  routeInputSchema,
  routeNameSchema,
} from '../../notify/schemas.ts';

declare module '../../config-doc/kind.ts' {
  interface DocLists {
    routes: true;
  }
}

/**
 * Alert routes (`/v1/notify/routes`), identified by `name`: the create body with entities named
 * `<blueprint>/<slug>` (`match.entities`), tenant channels by name (`channels`,
 * `escalate_channels`) and the escalation policy by name (`escalation_policy`). The API has no
 * update of a route, so an update replaces it.
 */

const fields = routeInputSchema.shape;
const channelNames = z
  .array(z.string().min(1))
  .max(MAX_ROUTE_CHANNELS, `must name at most ${MAX_ROUTE_CHANNELS} channels`)
  .meta({ description: 'Tenant channels, by name' });

const matchSchema = z
  .strictObject({
    blueprint_slugs: z
      .array(z.string().min(1))
      .max(MAX_ROUTE_BLUEPRINTS)
      .default(() => [])
      .meta({ description: 'Entities of these blueprints; empty: any' }),
    entities: z
      .array(z.string().regex(/^[^/]+\/[^/]+$/, 'Name an entity as <blueprint>/<entity slug>.'))
      .max(MAX_ROUTE_ENTITIES)
      .default(() => [])
      .meta({ description: 'These entities (<blueprint>/<entity slug>); empty: any' }),
    to_states: z
      .array(z.enum(ROUTE_STATES))
      .max(ROUTE_STATES.length)
      .default(() => []),
  })
  .default(() => ({ blueprint_slugs: [], entities: [], to_states: [] }));

const routeDocSchema = z
  .strictObject({
    name: routeNameSchema,
    match: matchSchema,
    channels: channelNames.default(() => []),
    escalate_after_seconds: fields.escalate_after_seconds.unwrap().nullable().default(null),
    escalate_channels: channelNames.default(() => []),
    escalation_policy: z.string().min(1).max(100).nullable().default(null).meta({
      description: 'An escalation policy, by name, the incidents of matching alerts climb until acknowledged',
    }),
    page_owner_policy: fields.page_owner_policy,
    group_by: fields.group_by,
    group_wait_seconds: fields.group_wait_seconds,
    group_interval_seconds: fields.group_interval_seconds,
  })
  // The API's own rule (routeInputSchema), stated on the document's names so a plan refuses it.
  .superRefine((doc, ctx) => {
    const pages = doc.escalation_policy !== null || doc.page_owner_policy;
    if (doc.channels.length === 0 && doc.escalate_channels.length === 0 && !pages)
      ctx.addIssue({
        code: 'custom',
        path: ['channels'],
        message: 'Name at least one channel (or an escalation policy).',
      });
    if (doc.escalate_channels.length > 0 !== (doc.escalate_after_seconds !== null))
      ctx.addIssue({
        code: 'custom',
        path: [doc.escalate_channels.length > 0 ? 'escalate_after_seconds' : 'escalate_channels'],
        message: 'escalate_after_seconds and escalate_channels go together.',
      });
  });
export type RouteDoc = z.output<typeof routeDocSchema>;

interface RouteView {
  id: string;
  name: string | null;
  match: { blueprint_slugs: string[]; entity_ids: string[]; to_states: RouteDoc['match']['to_states'] };
  channel_ids: string[];
  escalate_after_seconds: number | null;
  escalate_channel_ids: string[];
  escalation_policy_id: string | null;
  page_owner_policy: boolean;
  group_by: RouteDoc['group_by'];
  group_wait_seconds: number;
  group_interval_seconds: number;
}

/** The id behind a reference; a missing one fails the object as the API would (400). */
function idOf(names: NameIndex, ref: Reference): string {
  const id = names.id(ref.key, ref.identity);
  if (id !== undefined) return id;
  throw new ConfigApplyError({ status: 400, body: { error: `no ${ref.key} ${ref.identity} in the tenant` } });
}

const channelRefs = (list: string[]): Reference[] => list.map((identity) => ({ key: 'channels', identity }));

/** The create body of a route document, its names resolved to ids. */
function createBody(doc: RouteDoc, names: NameIndex) {
  const escalates = doc.escalate_after_seconds !== null;
  return {
    name: doc.name,
    match: {
      blueprint_slugs: doc.match.blueprint_slugs,
      entity_ids: doc.match.entities.map((identity) => idOf(names, { key: 'entities', identity })),
      to_states: doc.match.to_states,
    },
    channel_ids: channelRefs(doc.channels).map((ref) => idOf(names, ref)),
    ...(escalates
      ? {
          escalate_after_seconds: doc.escalate_after_seconds,
          escalate_channel_ids: channelRefs(doc.escalate_channels).map((ref) => idOf(names, ref)),
        }
      : {}),
    escalation_policy_id:
      doc.escalation_policy === null
        ? null
        : idOf(names, { key: 'escalation_policies', identity: doc.escalation_policy }),
    page_owner_policy: doc.page_owner_policy,
    group_by: doc.group_by,
    group_wait_seconds: doc.group_wait_seconds,
    group_interval_seconds: doc.group_interval_seconds,
  };
}

/** A route as the document holds it; an id the index does not know stays as it is (the API's own). */
function docOf(route: RouteView, names: NameIndex): RouteDoc {
  const channel = (id: string) => names.identity('channels', id) ?? id;
  return {
    name: route.name ?? route.id,
    match: {
      blueprint_slugs: route.match.blueprint_slugs,
      entities: route.match.entity_ids.map((id) => names.identity('entities', id) ?? id),
      to_states: route.match.to_states,
    },
    channels: route.channel_ids.map(channel),
    escalate_after_seconds: route.escalate_after_seconds,
    escalate_channels: route.escalate_channel_ids.map(channel),
    escalation_policy:
      route.escalation_policy_id === null
        ? null
        : (names.identity('escalation_policies', route.escalation_policy_id) ?? route.escalation_policy_id),
    page_owner_policy: route.page_owner_policy,
    group_by: route.group_by ?? GROUP_DEFAULTS.group_by,
    group_wait_seconds: route.group_wait_seconds,
    group_interval_seconds: route.group_interval_seconds,
  };
}

const createRoute = async (api: Api, body: unknown) =>
  (await expectOk<{ id: string }>(api, { method: 'POST', path: '/v1/notify/routes', body })).id;
const deleteRoute = (api: Api, id: string) =>
  expectOk(api, { method: 'DELETE', path: `/v1/notify/routes/${seg(id)}` });

export const routesKind = defineKind<RouteDoc>({
  key: 'routes',
  after: ['entities', 'channels', 'escalation_policies'],
  noun: 'route',
  schema: routeDocSchema,
  identity: (doc) => doc.name,
  references: (doc) => [
    ...doc.match.entities.map((identity): Reference => ({ key: 'entities', identity })),
    ...channelRefs([...doc.channels, ...doc.escalate_channels]),
    ...(doc.escalation_policy === null
      ? []
      : [{ key: 'escalation_policies' as const, identity: doc.escalation_policy }]),
  ],

  async read(api, names) {
    const { routes } = await expectOk<{ routes: RouteView[] }>(api, {
      method: 'GET',
      path: '/v1/notify/routes',
    });
    return routes.map((route) => ({ id: route.id, doc: docOf(route, names) }));
  },

  async create(api, doc, names) {
    return createRoute(api, createBody(doc, names));
  },

  /**
   * Replaces the route (the API has create and delete only): the old one goes first, since names
   * are unique; when the new one is refused, the old one is put back, so the object fails whole.
   */
  async update(api, current, doc, names) {
    const body = createBody(doc, names);
    const before = createBody(current.doc, names);
    await deleteRoute(api, current.id);
    try {
      const id = await createRoute(api, body);
      names.set('routes', doc.name, id);
    } catch (err) {
      names.set('routes', current.doc.name, await createRoute(api, before));
      throw err;
    }
  },

  async remove(api, current) {
    await deleteRoute(api, current.id);
  },
});
