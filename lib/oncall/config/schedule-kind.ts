import * as z from 'zod';
import { memberRef, memberRefSchema, memberResolver } from '../../config-doc/entity-refs.ts';
import { defineKind, expectOk, postNew, seg } from '../../config-doc/kind.ts';
import { requireUniqueNames } from '../../config-doc/names.ts';
import { layerInputSchema, SCHEDULE_LIMITS } from '../../domain/schedules.ts';
import type { PublicSchedule } from '../schedule-responses.ts';
import { scheduleBody } from '../schedule-schemas.ts';

declare module '../../config-doc/kind.ts' {
  interface DocLists {
    schedules: true;
  }
}

/**
 * On-call schedules in the document: the body of POST /v1/schedules with each layer's members
 * named by e-mail address (a former member, who has none, by user id) instead of user ids;
 * identity the schedule's name. Layers are listed lowest first, as the API takes them, and are
 * replaced whole on update (the API keeps a layer's id when its name matches: see bodyOf).
 * Overrides are not configuration: they are left alone by export and apply.
 */

/** A valid user id standing in for each member, so the API's own layer rules judge the rest. */
const SOME_USER_ID = 'usr_00000000000000000000000000';
const { id: _id, members: _members, ...layerFields } = layerInputSchema.shape;

const layerDoc = z
  .strictObject({ ...layerFields, members: z.array(memberRefSchema).min(1).max(SCHEDULE_LIMITS.members) })
  .superRefine((layer, ctx) => {
    const checked = layerInputSchema.safeParse({ ...layer, members: layer.members.map(() => SOME_USER_ID) });
    for (const issue of checked.success ? [] : checked.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

const schema = z.strictObject({
  name: scheduleBody.shape.name,
  time_zone: scheduleBody.shape.time_zone,
  layers: z.array(layerDoc).max(SCHEDULE_LIMITS.layers),
});
type ScheduleDoc = z.output<typeof schema>;
type LayerDoc = ScheduleDoc['layers'][number];

/** A layer of the API as the document has it: optional fields only when set (parsed, so typed as the document). */
function layerOf(layer: PublicSchedule['layers'][number]): LayerDoc {
  const { id: _layerId, members, ...rest } = layer;
  return layerDoc.parse({ ...rest, members: members.map(memberRef) });
}

/** Schedules (/v1/schedules), named by their name; their members by e-mail address. */
export const schedulesKind = defineKind<ScheduleDoc>({
  key: 'schedules',
  // On-call's lists follow the catalog's, the checks' and the automations'.
  after: ['skills'],
  noun: 'schedule',
  schema,
  identity: (doc) => doc.name,
  // People are no objects of the document: a member named who is not in the account fails the
  // schedule's create or update with the address named (memberResolver).
  references: () => [],

  async read(api) {
    const { schedules } = await expectOk<{ schedules: PublicSchedule[] }>(api, {
      method: 'GET',
      path: '/v1/schedules',
    });
    requireUniqueNames('schedules', schedules);
    return schedules.map((s) => ({
      id: s.id,
      doc: { name: s.name, time_zone: s.time_zone, layers: s.layers.map(layerOf) },
    }));
  },

  async create(api, doc) {
    const member = await memberResolver(api);
    const body = { ...doc, layers: doc.layers.map((layer, i) => member.layer(layer, `layers[${i}]`)) };
    return (await postNew<{ id: string }>(api, '/v1/schedules', body)).id;
  },

  async update(api, current, doc) {
    const member = await memberResolver(api);
    // The API keeps a layer's id (and so its calendar feeds' and who-is-on-call answers' names)
    // when the request gives it: a layer of the same name keeps its id.
    const schedule = await expectOk<PublicSchedule>(api, {
      method: 'GET',
      path: `/v1/schedules/${seg(current.id)}`,
    });
    const ids = new Map(schedule.layers.map((l) => [l.name, l.id]));
    const layers = doc.layers.map((layer, i) => {
      const id = ids.get(layer.name);
      return { ...(id ? { id } : {}), ...member.layer(layer, `layers[${i}]`) };
    });
    await expectOk(api, {
      method: 'PUT',
      path: `/v1/schedules/${seg(current.id)}`,
      body: { ...doc, layers },
    });
  },

  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/schedules/${seg(current.id)}` });
  },
});
