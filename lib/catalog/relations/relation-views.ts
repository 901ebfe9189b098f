import type { RelationRecord } from './relation-items.ts';

/** The public view of a relation (its stored shape is relation-items.ts's). */

/** A relation as returned (relations are immutable: created_at only). */
export function publicRelation(rel: RelationRecord) {
  return {
    id: rel.id,
    from_entity_id: rel.from_entity_id,
    to_entity_id: rel.to_entity_id,
    relation_type: rel.relation_type,
    created_at: rel.created_at,
  };
}
