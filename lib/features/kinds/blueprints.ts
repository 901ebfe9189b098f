import { isDeepStrictEqual } from 'node:util';
import type * as z from 'zod';
import type { publicBlueprintSchema } from '../../catalog/services.ts';
import { createBlueprintBody } from '../../catalog/services.ts';
import { refused } from '../../config-doc/entity-refs.ts';
import { defineKind, expectOk, postNew, seg } from '../../config-doc/kind.ts';
import { sortFields } from '../../domain/catalog.ts';
import { INTEGRATION_BLUEPRINT } from '../../integrations/own-blueprint.ts';

declare module '../../config-doc/kind.ts' {
  interface DocLists {
    blueprints: true;
  }
}

/**
 * Blueprints in the document: the create body of POST /v1/blueprints, identity the slug. Fields
 * are listed in display order (sort_order, then name), as the API answers them, so a document
 * that lists them in another order plans nothing.
 */
const schema = createBlueprintBody.extend({
  fields: createBlueprintBody.shape.fields.transform((fields) => sortFields(fields)),
});
type BlueprintDoc = z.output<typeof schema>;
type Field = BlueprintDoc['fields'][number];
type PublicBlueprint = z.output<typeof publicBlueprintSchema>;

/** The attributes PUT /v1/blueprints/{slug} changes (fields are only ever added, by POST …/fields). */
const ATTRIBUTES = ['name', 'description', 'is_default', 'state_rule'] as const;

/**
 * The fields the document adds to the blueprint. The API adds fields and never changes or removes
 * one, so a document that changes or drops a field is refused before any call rather than half
 * applied or silently left as it is.
 */
function addedFields(slug: string, current: Field[], wanted: Field[]): Field[] {
  const byName = new Map(wanted.map((field) => [field.name, field]));
  const problems: string[] = [];
  for (const field of current) {
    const next = byName.get(field.name);
    if (!next) problems.push(`field ${field.name} would be removed`);
    else if (!isDeepStrictEqual(next, field)) problems.push(`field ${field.name} would change`);
  }
  if (problems.length > 0)
    throw refused(
      `blueprint ${slug}: ${problems.join('; ')}. The API only adds fields to a blueprint; keep the field as it is, or delete the blueprint (after its entities) and create it again.`,
    );
  const known = new Set(current.map((field) => field.name));
  return wanted.filter((field) => !known.has(field.name));
}

export const blueprintsKind = defineKind<BlueprintDoc>({
  key: 'blueprints',
  noun: 'blueprint',
  schema,
  identity: (doc) => doc.slug,
  references: () => [],

  async read(api) {
    const list = await expectOk<PublicBlueprint[]>(api, { method: 'GET', path: '/v1/blueprints' });
    // The integrations' blueprint is theirs (made with the first one), as its entities are.
    return list
      .filter((bp) => bp.slug !== INTEGRATION_BLUEPRINT)
      .map((bp) => ({
        id: bp.id,
        doc: {
          slug: bp.slug,
          name: bp.name,
          description: bp.description,
          fields: bp.fields,
          is_default: bp.is_default,
          state_rule: bp.state_rule,
        },
      }));
  },

  async create(api, doc) {
    return (await postNew<PublicBlueprint>(api, '/v1/blueprints', doc)).id;
  },

  async update(api, current, doc) {
    const path = `/v1/blueprints/${seg(doc.slug)}`;
    const added = addedFields(doc.slug, current.doc.fields, doc.fields);
    // Fields first: adding one is what the API may refuse (a required field without a default on a
    // blueprint with entities), and then the attributes are left as they were too.
    for (const field of added) await expectOk(api, { method: 'POST', path: `${path}/fields`, body: field });
    const change = Object.fromEntries(
      ATTRIBUTES.filter((name) => doc[name] !== current.doc[name]).map((name) => [name, doc[name]]),
    );
    if (Object.keys(change).length > 0) await expectOk(api, { method: 'PUT', path, body: change });
  },

  async remove(api, current) {
    // The engine deletes entities before blueprints, so the blueprint is empty by now.
    await expectOk(api, { method: 'DELETE', path: `/v1/blueprints/${seg(current.doc.slug)}` });
  },
});
