import * as z from 'zod';
import { layerInputSchema, SCHEDULE_LIMITS } from '../../domain/schedules.ts';
import type { PublicSchedule } from '../../oncall/schedule-responses.ts';
import { scheduleBody } from '../../oncall/schedule-schemas.ts';
import { refused } from '../entity-refs.ts';
import { type Api, defineKind, expectOk, postNew, seg } from '../kind.ts';
import { requireUniqueNames } from '../names.ts';

/**
 * On-call schedules in the document: the body of POST /v1/schedules with each layer's members
 * named by e-mail address (a former member, who has none, by user id) instead of user ids;
 * identity the schedule's name. Layers are listed lowest first, as the API takes them, and are
 * replaced whole on update (the API keeps a layer's id when its name matches: see bodyOf).
 * Overrides are not configuration: they are left alone by export and apply.
 */

/**
 * A person named in a document (schedules' and teams' members): the member's e-mail address, which
 * is the same in every account they belong to, where a user id is not; a former member (no address
 * any more) by the user id the API still holds.
 */
export const memberRefSchema = z
  .string()
  .trim()
  .max(254)
  .regex(/^(usr_[0-9A-Za-z]{1,60}|[^@\s]+@[^@\s]+)$/, 'Name a member by e-mail address.')
  .transform((ref) => (ref.includes('@') ? ref.toLowerCase() : ref))
  .meta({ description: 'A member of the account, by e-mail address' });

/** A person as the API names them, as the document does. */
export const memberRef = (person: { id: string; email: string | null }) => person.email ?? person.id;

/**
 * The user ids of members named by the document, from the account's members (GET
 * /v1/settings/users); an address no member has fails the object with the path named.
 */
export async function memberResolver(api: Api) {
  const list = await expectOk<{ id: string; email: string; status: string }[]>(api, {
    method: 'GET',
    path: '/v1/settings/users',
  });
  const byEmail = new Map(
    list.filter((u) => u.status === 'active').map((u) => [u.email.toLowerCase(), u.id]),
  );
  const id = (ref: string, path: string) => {
    if (!ref.includes('@')) return ref;
    const found = byEmail.get(ref);
    if (found === undefined) throw refused(`${path}: no member of this account has the address ${ref}`);
    return found;
  };
  return {
    id,
    ids: (refs: string[], path: string) => refs.map((ref, i) => id(ref, `${path}[${i}]`)),
    layer: <L extends { members: string[] }>(layer: L, path: string) => ({
      ...layer,
      members: layer.members.map((ref, i) => id(ref, `${path}.members[${i}]`)),
    }),
  };
}

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
