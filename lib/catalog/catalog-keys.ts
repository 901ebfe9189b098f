import { itemType } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';

/** Keys of the catalog items (blueprints, entities, relations, purge jobs); see docs/data-model.md. */

export const catalogKeys = {
  blueprint: (tenantId: string, slug: string) => ({ pk: tenantPk(tenantId), sk: `BP#${slug}` }),
  entity: (tenantId: string, blueprintSlug: string, slug: string) => ({
    pk: tenantPk(tenantId),
    sk: `ENT#${blueprintSlug}#${slug}`,
  }),
  /** The id pointer of an entity: ENTID#<ent_id> -> {blueprint_slug, slug}. */
  entityId: (tenantId: string, entityId: string) => ({ pk: tenantPk(tenantId), sk: `ENTID#${entityId}` }),
  relation: (tenantId: string, relationId: string) => ({ pk: tenantPk(tenantId), sk: `REL#${relationId}` }),
  /** Uniqueness of (from, type, to). */
  relationKey: (tenantId: string, from: string, type: string, to: string) => ({
    pk: tenantPk(tenantId),
    sk: `RELKEY#${from}#${type}#${to}`,
  }),
  /** Adjacency of the depends_on graph: DEP#<from>#<to>. */
  dependency: (tenantId: string, from: string, to: string) => ({
    pk: tenantPk(tenantId),
    sk: `DEP#${from}#${to}`,
  }),
  entityPurgeJob: (tenantId: string, entityId: string) => ({
    pk: purgePk(tenantId),
    sk: `ENTITY#${entityId}`,
  }),
  partitionPurgeJob: (tenantId: string, partition: string) => ({
    pk: purgePk(tenantId),
    sk: `PARTITION#${partition}`,
  }),
};

/** The catalog item types: each item's `entity` and the version of its stored shape. */
export const catalogTypes = {
  blueprint: itemType('blueprint'),
  entity: itemType('entity'),
  entityPointer: itemType('entity_pointer'),
  relation: itemType('relation'),
  relationKey: itemType('relation_key'),
  dependency: itemType('dependency'),
  purgeJob: itemType('purge_job'),
};

export const BLUEPRINT_PREFIX = 'BP#';
export const RELATION_PREFIX = 'REL#';
export const entityPrefix = (blueprintSlug: string) => `ENT#${blueprintSlug}#`;
export const dependencyPrefix = (from: string) => `DEP#${from}#`;
export const purgePk = (tenantId: string) => `PURGE#${tenantId}`;

/** GSI keys of a relation: gsi1 by from-entity, gsi2 by to-entity, both `ENTREL#<entity_id>`. */
export const entityRelationsPk = (entityId: string) => `ENTREL#${entityId}`;
