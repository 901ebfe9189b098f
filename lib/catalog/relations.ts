/**
 * The catalog's relations (its front door; relations/ is private): the relation items and the
 * graph reads other folders walk (dependencies, dependents, upstreams, owning teams), a relation's
 * two ends, and the purge of an entity's relations.
 */

export { readRelationEnds } from './relations/relation-ends.ts';
export type { RelationRecord, RelationStore } from './relations/relation-items.ts';
export {
  createRelationStore,
  deleteRelationOps,
  dependenciesOf,
  dependentsOf,
  newRelationOps,
  ownedByTeam,
  teamOwnersOf,
  upstreamsOf,
} from './relations/relation-items.ts';
export { purgeEntityRelations } from './relations/relation-purge.ts';
