import * as z from 'zod';
import { entityRef, entityRefSchema, resolveId } from '../config-doc/entity-refs.ts';
import { defineKind, expectOk, type NameIndex, postNew, seg } from '../config-doc/kind.ts';
import { WINDOW_LIMITS } from './maintenance-items.ts';
import { DEFAULT_ANNOUNCE_LEAD_SECONDS, windowBody } from './request-schemas.ts';
import type { windowListSchema } from './responses.ts';

declare module '../config-doc/kind.ts' {
  interface DocLists {
    maintenance: true;
  }
}

/**
 * Maintenance windows in the document: the body of POST /v1/maintenance with entity references
 * (`entities`) for `entity_ids`; identity the window's name. Either `starts_at` + `ends_at`
 * (one-off) or `cron` + `duration_seconds` + `timezone` (recurring), as the API takes them, with
 * the status-page notice: `announce`, `public_note`, and `announce_from` (one-off) or
 * `announce_lead_seconds` (recurring, default a day).
 */

/** A valid entity id standing in for each reference, so the API's own rules judge the rest of the window. */
const SOME_ENTITY_ID = 'ent_00000000000000000000000000';
const { name, entity_ids: _ids, ...fields } = windowBody.shape;

const unique = <T>(list: T[]) => [...new Set(list)];

const schema = z
  .strictObject({
    name,
    entities: z.array(entityRefSchema).max(WINDOW_LIMITS.entityIds).default([]),
    ...fields,
  })
  .superRefine((doc, ctx) => {
    const { entities, ...rest } = doc;
    const checked = windowBody.safeParse({ ...rest, entity_ids: entities.map(() => SOME_ENTITY_ID) });
    for (const issue of checked.success ? [] : checked.error.issues) {
      const [first, ...path] = issue.path;
      ctx.addIssue({
        code: 'custom',
        path: [first === 'entity_ids' ? 'entities' : (first ?? ''), ...path],
        message: issue.message,
      });
    }
  })
  // The window as the API stores and answers it: lists without repeats, times to the millisecond,
  // the cron's spaces single, a recurring window's timezone UTC when none is given.
  .transform(
    ({
      starts_at,
      ends_at,
      cron,
      duration_seconds,
      timezone,
      announce_from,
      announce_lead_seconds,
      public_note,
      ...doc
    }) => {
      const note = public_note?.trim();
      const base = {
        ...doc,
        entities: unique(doc.entities),
        blueprint_slugs: unique(doc.blueprint_slugs),
        ...(note ? { public_note: note } : {}),
      };
      // The rules above hold here: a one-off window has both times, a recurring one its duration.
      if (cron === undefined)
        return {
          ...base,
          starts_at: new Date(starts_at ?? 0).toISOString(),
          ends_at: new Date(ends_at ?? 0).toISOString(),
          ...(announce_from ? { announce_from: new Date(announce_from).toISOString() } : {}),
        };
      return {
        ...base,
        cron: cron.trim().replace(/\s+/g, ' '),
        duration_seconds: duration_seconds ?? 0,
        timezone: timezone ?? 'UTC',
        announce_lead_seconds: announce_lead_seconds ?? DEFAULT_ANNOUNCE_LEAD_SECONDS,
      };
    },
  );
type WindowDoc = z.output<typeof schema>;
type PublicWindow = z.output<typeof windowListSchema>['windows'][number];

/** A window of the API as the document has it. */
function docOf(window: PublicWindow): WindowDoc {
  const base = {
    name: window.name,
    entities: window.entities.map(entityRef),
    blueprint_slugs: window.blueprint_slugs,
    include_dependents: window.include_dependents,
    announce: window.announce,
    ...(window.public_note === null ? {} : { public_note: window.public_note }),
  };
  if (window.cron === null)
    return {
      ...base,
      starts_at: window.starts_at ?? '',
      ends_at: window.ends_at ?? '',
      ...(window.announce_from === null ? {} : { announce_from: window.announce_from }),
    };
  return {
    ...base,
    cron: window.cron,
    duration_seconds: window.duration_seconds ?? 0,
    timezone: window.timezone ?? 'UTC',
    announce_lead_seconds: window.announce_lead_seconds ?? DEFAULT_ANNOUNCE_LEAD_SECONDS,
  };
}

/** The API's body for a window of the document: its entities by id. */
function bodyOf(doc: WindowDoc, names: NameIndex) {
  const { entities, ...rest } = doc;
  return {
    ...rest,
    entity_ids: entities.map((ref, i) => resolveId(names, 'entities', ref, `entities[${i}]`)),
  };
}

export const maintenanceKind = defineKind<WindowDoc>({
  key: 'maintenance',
  // After the checks it quiets.
  after: ['entities', 'checks'],
  noun: 'maintenance window',
  schema,
  identity: (doc) => doc.name,
  // Blueprint slugs are no references: the API keeps a window over a blueprint that does not
  // exist (it covers that blueprint's entities once there are some), so an export holding one
  // must apply as it is.
  references: (doc) => doc.entities.map((identity) => ({ key: 'entities' as const, identity })),

  async read(api) {
    // A window's `entities` leaves out entities deleted since: the document names only what exists.
    const { windows } = await expectOk<{ windows: PublicWindow[] }>(api, {
      method: 'GET',
      path: '/v1/maintenance',
    });
    return windows.map((window) => ({ id: window.id, doc: docOf(window) }));
  },

  async create(api, doc, names) {
    return (await postNew<{ id: string }>(api, '/v1/maintenance', bodyOf(doc, names))).id;
  },

  async update(api, current, doc, names) {
    // PUT takes the whole window.
    await expectOk(api, {
      method: 'PUT',
      path: `/v1/maintenance/${seg(current.id)}`,
      body: bodyOf(doc, names),
    });
  },

  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/maintenance/${seg(current.id)}` });
  },
});
