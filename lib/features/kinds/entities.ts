import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';
import type { entityPageSchema } from '../../catalog/services.ts';
import { createEntityBody, ENTITY_PAGE_MAX } from '../../catalog/services.ts';
import { defineKind, expectOk, postNew, seg } from '../../config-doc/kind.ts';
import { slugSchema } from '../../domain/formats.ts';
import { INTEGRATION_BLUEPRINT } from '../../integrations/own-blueprint.ts';

declare module '../../config-doc/kind.ts' {
  interface DocLists {
    entities: true;
  }
}

/**
 * Entities in the document: the create body of POST /v1/blueprints/{blueprint}/entities with the
 * blueprint's slug as `blueprint`; identity `<blueprint>/<slug>`. `fields` holds every value the
 * entity has, those its blueprint's defaults filled included, as the API reads them.
 */
const schema = z.strictObject({
  blueprint: slugSchema().meta({ description: 'The slug of its blueprint' }),
  ...createEntityBody.shape,
});
type EntityDoc = z.output<typeof schema>;
type EntityPage = z.output<typeof entityPageSchema>;

const entityPath = (doc: EntityDoc) => `/v1/blueprints/${seg(doc.blueprint)}/entities/${seg(doc.slug)}`;

/** The merge patch from `current` values to `wanted`: changed and new values, null for those left out. */
function fieldsPatch(current: Record<string, unknown>, wanted: Record<string, unknown>) {
  const patch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(wanted))
    if (!isDeepStrictEqual(current[name], value)) patch[name] = value;
  for (const name of Object.keys(current)) if (!Object.hasOwn(wanted, name)) patch[name] = null;
  return patch;
}

export const entitiesKind = defineKind<EntityDoc>({
  key: 'entities',
  after: ['blueprints'],
  noun: 'entity',
  schema,
  identity: (doc) => `${doc.blueprint}/${doc.slug}`,
  references: (doc) => [{ key: 'blueprints', identity: doc.blueprint }],

  async read(api) {
    const found: { id: string; doc: EntityDoc }[] = [];
    let cursor: string | undefined;
    // Every page: a tenant may hold far more entities than one page carries.
    do {
      const page = await expectOk<EntityPage>(api, {
        method: 'GET',
        path: '/v1/entities',
        query: { limit: String(ENTITY_PAGE_MAX), ...(cursor ? { cursor } : {}) },
      });
      for (const entity of page.entities) {
        // An integration's own entity is the integration's (made and removed with it).
        if (entity.blueprint_slug === INTEGRATION_BLUEPRINT) continue;
        found.push({
          id: entity.id,
          doc: {
            blueprint: entity.blueprint_slug,
            slug: entity.slug,
            name: entity.name,
            fields: entity.fields,
            state_rule: entity.state_rule,
          },
        });
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return found;
  },

  async create(api, doc) {
    const { blueprint, ...body } = doc;
    return (await postNew<{ id: string }>(api, `/v1/blueprints/${seg(blueprint)}/entities`, body)).id;
  },

  async update(api, current, doc) {
    const patch: Record<string, unknown> = {};
    if (doc.name !== current.doc.name) patch.name = doc.name;
    if (doc.state_rule !== current.doc.state_rule) patch.state_rule = doc.state_rule;
    const fields = fieldsPatch(current.doc.fields, doc.fields);
    if (Object.keys(fields).length > 0) patch.fields = fields;
    // One PUT: the API applies name, state rule and fields in one transaction.
    await expectOk(api, { method: 'PUT', path: entityPath(doc), body: patch });
  },

  async remove(api, current) {
    // Its checks and relations are purged by the API after the delete (asynchronously).
    await expectOk(api, { method: 'DELETE', path: entityPath(current.doc) });
  },
});
