import { tenantCatalogOp } from '../../auth/records.ts';
import { wouldCreateCycle } from '../../domain/catalog.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, clipText, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import { unchanged } from '../../store/conditions.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { entityExistsOp } from '../entities/entity-items.ts';
import type { EntityStore } from '../entities/entity-store.ts';
import { readTenantCatalog } from '../tenant/tenant-catalog.ts';
import { readRelationEnds } from './relation-ends.ts';
import {
  deleteRelationOps,
  newRelationOps,
  type RelationRecord,
  type RelationStore,
  type RelationType,
} from './relation-items.ts';
import { publicRelation } from './relation-views.ts';

/** The cycle search visits at most this many entities; beyond it a depends_on is refused. */
const MAX_DEPENDENCY_SEARCH = 1000;

/** The most hops a neighbourhood reaches, and the most entities its walk visits. */
export const MAX_HOPS = 3;
export const MAX_NEIGHBOURHOOD = 500;

/** Ids are 30 characters; a longer one is clipped so the 404 never grows with the input. */
const MAX_ECHOED_ID = 40;

/** The 404 for a referenced entity that does not exist, naming the id and the field it came in. */
function missingEntity(id: string, field: string): NotFoundError {
  return new NotFoundError(`entity ${clipText(id, MAX_ECHOED_ID)} (${field})`);
}

export interface RelationServiceDeps {
  table: Table;
  relations: RelationStore;
  entities: EntityStore;
  clock: Clock;
}

/** What GET /v1/relations filters by. */
export interface RelationFilter {
  entityId?: string | undefined;
  /** The depends_on relations on a path into this entity: its blast radius, transitively. */
  dependentsOf?: string | undefined;
  hops?: number | undefined;
  blueprintSlug?: string | undefined;
  relationType?: RelationType | undefined;
}

export interface NewRelation {
  from_entity_id: string;
  to_entity_id: string;
  relation_type: RelationType;
}

/** Relations between entities of one tenant; depends_on stays acyclic. */
export function createRelationService(deps: RelationServiceDeps) {
  const { table, relations, entities, clock } = deps;

  /**
   * Relations whose two ends still exist (an entity's relations linger until its purge job has
   * run), each with its ends named (relation-ends.ts: batch reads).
   */
  const named = async (tenantId: string, rels: RelationRecord[]) => {
    const ends = await readRelationEnds(table, tenantId, [
      ...new Set(rels.flatMap((rel) => [rel.from_entity_id, rel.to_entity_id])),
    ]);
    return rels.flatMap((rel) => {
      const from = ends.get(rel.from_entity_id);
      const to = ends.get(rel.to_entity_id);
      return from && to ? [{ ...publicRelation(rel), from_entity: from, to_entity: to }] : [];
    });
  };

  /**
   * The relations within `hops` of an entity (of one type, with one): a breadth-first walk over the
   * relation indexes of each entity reached, which stops widening at MAX_NEIGHBOURHOOD entities.
   * `dependents`: only the depends_on relations into each entity reached (its blast radius).
   */
  const neighbourhood = async (
    tenantId: string,
    start: string,
    hops: number,
    type?: RelationType,
    dependents = false,
  ) => {
    const found = new Map<string, RelationRecord>();
    const seen = new Set([start]);
    let frontier = [start];
    for (let hop = 0; hop < hops && frontier.length > 0; hop += 1) {
      const next: string[] = [];
      const read = await Promise.all(
        frontier.map(async (id) => (await relations.ofEntity(tenantId, id)).map((rel) => ({ id, rel }))),
      );
      for (const { id, rel } of read.flat()) {
        if (dependents && (rel.relation_type !== 'depends_on' || rel.to_entity_id !== id)) continue;
        if (type && rel.relation_type !== type) continue;
        found.set(rel.id, rel);
        for (const end of dependents ? [rel.from_entity_id] : [rel.from_entity_id, rel.to_entity_id]) {
          if (seen.has(end) || seen.size >= MAX_NEIGHBOURHOOD) continue;
          seen.add(end);
          next.push(end);
        }
      }
      frontier = next;
    }
    // Relations to entities past the bound are left out, so every end answered was reached.
    return [...found.values()].filter((rel) => seen.has(rel.from_entity_id) && seen.has(rel.to_entity_id));
  };

  const checkAcyclic = async (tenantId: string, input: NewRelation) => {
    const verdict = await wouldCreateCycle(
      input.from_entity_id,
      input.to_entity_id,
      (node) => relations.dependenciesOf(tenantId, node),
      MAX_DEPENDENCY_SEARCH,
    );
    if (verdict === 'cycle') {
      // A sentence for the banner and one for the field: no field name in the words a person reads.
      throw new ValidationError(
        'This relation would close a dependency cycle: the entity it would depend on already depends on the other one.',
        [
          {
            path: 'to_entity_id',
            message: 'This entity already depends on the other one, so the relation would close a cycle.',
          },
        ],
      );
    }
    if (verdict === 'too_large') {
      throw ValidationError.field(
        'to_entity_id',
        `dependency graph too large to check (over ${MAX_DEPENDENCY_SEARCH} entities)`,
      );
    }
  };

  const createOnce = async (tenantId: string, input: NewRelation) => {
    const graphVersion =
      input.relation_type === 'depends_on'
        ? (await readTenantCatalog(table, tenantId)).relation_graph_version
        : undefined;
    if (input.relation_type === 'depends_on') await checkAcyclic(tenantId, input);
    const now = clock.now();
    const rel: RelationRecord = { id: newId('rel', now), ...input, created_at: isoTime(now) };
    const ops: WriteOp[] = newRelationOps(tenantId, rel);
    const fromAt = ops.length;
    ops.push(entityExistsOp(tenantId, rel.from_entity_id), entityExistsOp(tenantId, rel.to_entity_id));
    if (input.relation_type === 'depends_on') {
      // Serializes depends_on creations per tenant, so two concurrent edges cannot close a cycle unseen.
      ops.push(
        tenantCatalogOp(tenantId, {
          add: { relation_graph_version: 1 },
          condition: {
            kind: 'and',
            conditions: [{ kind: 'itemExists' }, unchanged('relation_graph_version', graphVersion)],
          },
        }),
      );
    }
    try {
      await table.transact(ops);
      return publicRelation(rel);
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      if (err.failed.includes(fromAt)) throw missingEntity(rel.from_entity_id, 'from_entity_id');
      if (err.failed.includes(fromAt + 1)) throw missingEntity(rel.to_entity_id, 'to_entity_id');
      if (err.failed.includes(1))
        throw new ConflictError(`this ${rel.relation_type} relation already exists`);
      return RETRY;
    }
  };

  return {
    async create(tenantId: string, input: NewRelation) {
      if (input.from_entity_id === input.to_entity_id) {
        throw ValidationError.field('to_entity_id', 'must differ from from_entity_id (no self-relations)');
      }
      const [from, to] = await Promise.all([
        entities.getById(tenantId, input.from_entity_id),
        entities.getById(tenantId, input.to_entity_id),
      ]);
      if (!from) throw missingEntity(input.from_entity_id, 'from_entity_id');
      if (!to) throw missingEntity(input.to_entity_id, 'to_entity_id');
      const rel = await withRetries(OPTIMISTIC_ATTEMPTS, 'the dependency graph', () =>
        createOnce(tenantId, input),
      );
      const end = (e: typeof from) => ({
        name: e.name,
        slug: e.slug,
        blueprint_slug: e.blueprint_slug,
        state: e.state,
      });
      return { ...rel, from_entity: end(from), to_entity: end(to) };
    },

    /**
     * Every relation of the tenant, or those within `hops` (default 1) of one entity, or the
     * depends_on relations of its blast radius (`dependentsOf`), or those with an end in one
     * blueprint, optionally of one type; oldest first, each end named.
     */
    async list(tenantId: string, filter: RelationFilter = {}) {
      const type = filter.relationType;
      let rels: RelationRecord[];
      if (filter.dependentsOf !== undefined) {
        if (!(await entities.getById(tenantId, filter.dependentsOf))) throw new NotFoundError('entity');
        rels = await neighbourhood(tenantId, filter.dependentsOf, MAX_NEIGHBOURHOOD, type, true);
      } else if (filter.entityId === undefined) {
        rels = (await relations.list(tenantId)).filter((rel) => !type || rel.relation_type === type);
      } else {
        if (!(await entities.getById(tenantId, filter.entityId))) throw new NotFoundError('entity');
        rels = await neighbourhood(tenantId, filter.entityId, filter.hops ?? 1, type);
      }
      const bp = filter.blueprintSlug;
      const alive = (await named(tenantId, rels)).filter(
        (rel) => !bp || rel.from_entity.blueprint_slug === bp || rel.to_entity.blueprint_slug === bp,
      );
      return alive.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async remove(tenantId: string, relationId: string): Promise<void> {
      const rel = isId('rel', relationId) ? await relations.get(tenantId, relationId) : undefined;
      if (!rel) throw new NotFoundError('relation');
      try {
        await table.transact(deleteRelationOps(tenantId, rel, { kind: 'itemExists' }));
      } catch (err) {
        if (err instanceof ConditionFailedError) throw new NotFoundError('relation');
        throw err;
      }
    },
  };
}

export type RelationService = ReturnType<typeof createRelationService>;
