import * as z from 'zod';
import type { publicRelationSchema } from '../../catalog/services.ts';
import { createRelationBody } from '../../catalog/services.ts';
import { entityRef, entityRefSchema, refused, resolveId } from '../../config-doc/entity-refs.ts';
import { ConfigApplyError, defineKind, expectOk, seg } from '../../config-doc/kind.ts';

declare module '../../config-doc/kind.ts' {
  interface DocLists {
    relations: true;
  }
}

/**
 * Relations in the document: the create body of POST /v1/relations with entity references for
 * the ids; identity `<from> <relation_type> <to>`. Every field is part of the identity, so a
 * relation is never updated: another relation in the document is another object (created, and
 * the old one deleted by an apply with prune).
 */
const schema = z.strictObject({
  from: entityRefSchema,
  relation_type: createRelationBody.shape.relation_type,
  to: entityRefSchema,
});
type RelationDoc = z.output<typeof schema>;
type PublicRelation = z.output<typeof publicRelationSchema>;

export const relationsKind = defineKind<RelationDoc>({
  key: 'relations',
  after: ['entities'],
  noun: 'relation',
  schema,
  identity: (doc) => `${doc.from} ${doc.relation_type} ${doc.to}`,
  references: (doc) => [
    { key: 'entities', identity: doc.from },
    { key: 'entities', identity: doc.to },
  ],

  async read(api) {
    // The API answers only relations whose two ends still exist, each end named.
    const list = await expectOk<PublicRelation[]>(api, { method: 'GET', path: '/v1/relations' });
    return list.map((rel) => ({
      id: rel.id,
      doc: {
        from: entityRef(rel.from_entity),
        relation_type: rel.relation_type,
        to: entityRef(rel.to_entity),
      },
    }));
  },

  async create(api, doc, names) {
    const rel = await expectOk<{ id: string }>(api, {
      method: 'POST',
      path: '/v1/relations',
      body: {
        from_entity_id: resolveId(names, 'entities', doc.from, 'from'),
        to_entity_id: resolveId(names, 'entities', doc.to, 'to'),
        relation_type: doc.relation_type,
      },
    });
    return rel.id;
  },

  async update(_api, current) {
    // Unreachable through a plan (two relations that differ have different identities); refused
    // rather than done as a delete and a create, which a caller of update would not expect.
    throw refused(
      `relation ${current.doc.from} ${current.doc.relation_type} ${current.doc.to} cannot be changed`,
    );
  },

  async remove(api, current) {
    const answer = await api({ method: 'DELETE', path: `/v1/relations/${seg(current.id)}` });
    // Gone already is done: deleting an entity purges its relations in the background.
    if (answer.status >= 300 && answer.status !== 404) throw new ConfigApplyError(answer);
  },
});
