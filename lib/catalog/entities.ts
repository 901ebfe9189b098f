/**
 * The catalog's entities (its front door; entities/ is private): the entity items and their named
 * reads and write ops, the store of a tenant's entities, the namer other folders show entities by,
 * and the state index the status board counts. The services over them are services.ts's.
 */

export type { ToolKitDeps } from './entities/entity-args.ts';
export {
  entityIdsOfKeys,
  entityKeysProperty,
  entityNaming,
  entityRefInput,
  entityRefProperties,
  knownEntities,
  namesEntity,
  optionalEntity,
  requiredEntity,
} from './entities/entity-args.ts';
export type { EntityChecksChange, EntityRecord, EntityState } from './entities/entity-items.ts';
export {
  entityChecksOp,
  entityExistsOp,
  entityListSource,
  entityUnchangedOp,
  getEntity,
  getEntityById,
  listEntities,
  listEntityStates,
  parseEntityState,
  readEntityById,
  readEntityItem,
  readEntityItems,
  readEntityListChunk,
  readEntityPointers,
  readEntityState,
} from './entities/entity-items.ts';
export type { NamedEntity } from './entities/entity-names.ts';
export { entityNamer, namedEntitySchema } from './entities/entity-names.ts';
export type { BoardState } from './entities/entity-state-index-items.ts';
export {
  countersMarker,
  countersSeededOp,
  readStateEntryChunk,
  readStatusCounters,
  STATES,
  seededEntryOp,
  stateIndexSource,
  stateMoveOps,
} from './entities/entity-state-index-items.ts';
export type { EntityStore } from './entities/entity-store.ts';
export { createEntityStore, requireTenantEntities } from './entities/entity-store.ts';
