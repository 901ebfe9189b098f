import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantItemKeys, tenantPk } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * The owner of a relation's items (docs/data-model.md, Catalog): the record (`relation`, indexed by
 * both ends), its uniqueness item (`relation_key`) and, for depends_on, its adjacency item
 * (`dependency`), which the cycle search and the notifier's upstream walk read.
 */

export const RELATION_TYPES = ['depends_on', 'part_of', 'connects_to', 'owned_by'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

export const relationSchema = z.object({
  id: z.string(),
  from_entity_id: z.string(),
  to_entity_id: z.string(),
  relation_type: z.enum(RELATION_TYPES),
  created_at: z.string(),
  /**
   * The kind of the `to` end (DECISIONS.md "On-call (wave 5)"): absent, an entity; `team`, an
   * owned_by relation whose `to_entity_id` holds a team's id (lib/teams). The entity graph's reads
   * (list, ofEntity, the walks) leave team ends out; teamOwnersOf and ownedByTeam read them.
   */
  to_type: z.literal('team').optional(),
});
export type RelationRecord = z.infer<typeof relationSchema>;

/** gsi1 (by from-entity) and gsi2 (by to-entity) partition of an entity's relations. */
const entityRelationsPk = (entityId: string) => `ENTREL#${entityId}`;

const relations = defineItem({
  type: itemType('relation'),
  // Stored with version 1 (relations are immutable).
  schema: relationSchema.extend({ version: z.number().int().optional() }),
  ...tenantItemKeys('REL#', '<rel_id>'),
  keyOf: null,
  gsi1: (r) => ({ pk: entityRelationsPk(r.from_entity_id), sk: `REL#${r.id}` }),
  gsi2: (r) => ({ pk: entityRelationsPk(r.to_entity_id), sk: `REL#${r.id}` }),
});

interface Ends {
  tenant_id: string;
  from_entity_id: string;
  relation_type: string;
  to_entity_id: string;
}

/** Uniqueness of (from, type, to). */
const relationKeys = defineItem({
  type: itemType('relation_key'),
  schema: z.object({ relation_id: z.string() }),
  key: (k: Ends) => ({
    pk: tenantPk(k.tenant_id),
    sk: `RELKEY#${k.from_entity_id}#${k.relation_type}#${k.to_entity_id}`,
  }),
  keyOf: null,
  docKey: {
    tenant_id: '<tnt>',
    from_entity_id: '<from_id>',
    relation_type: '<type>',
    to_entity_id: '<to_id>',
  },
});

/** Adjacency of the depends_on graph: DEP#<from>#<to>. */
const dependencies = defineItem({
  type: itemType('dependency'),
  schema: z.object({ relation_id: z.string(), from_entity_id: z.string(), to_entity_id: z.string() }),
  key: (k: { tenant_id: string; from_entity_id: string; to_entity_id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `DEP#${k.from_entity_id}#${k.to_entity_id}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', from_entity_id: '<from_id>', to_entity_id: '<to_id>' },
});

const endsOf = (tenantId: string, rel: RelationRecord): Ends => ({ tenant_id: tenantId, ...rel });

/** The puts that create a relation; the uniqueness item makes a duplicate fail its condition (op 1). */
export function newRelationOps(tenantId: string, rel: RelationRecord): WriteOp[] {
  const ops: WriteOp[] = [
    relations.putAt({ tenant_id: tenantId, id: rel.id }, { version: 1, ...rel }, { kind: 'itemNotExists' }),
    relationKeys.putAt(endsOf(tenantId, rel), { relation_id: rel.id }, { kind: 'itemNotExists' }),
  ];
  if (rel.relation_type === 'depends_on') {
    ops.push(
      dependencies.putAt(endsOf(tenantId, rel), {
        relation_id: rel.id,
        from_entity_id: rel.from_entity_id,
        to_entity_id: rel.to_entity_id,
      }),
    );
  }
  return ops;
}

/** The deletes that remove a relation and its helper items (the first, the record, held by `condition`). */
export function deleteRelationOps(
  tenantId: string,
  rel: RelationRecord,
  condition?: { kind: 'itemExists' },
): WriteOp[] {
  const ops: WriteOp[] = [
    relations.delete({ tenant_id: tenantId, id: rel.id }, condition),
    relationKeys.delete(endsOf(tenantId, rel)),
  ];
  if (rel.relation_type === 'depends_on') ops.push(dependencies.delete(endsOf(tenantId, rel)));
  return ops;
}

const plain = ({ version: _version, ...rel }: RelationRecord & { version?: number | undefined }) => rel;

/** One relation of the tenant (consistent), or undefined. */
async function getRelation(
  table: Table,
  tenantId: string,
  relationId: string,
): Promise<RelationRecord | undefined> {
  const rel = await relations.get(table, { tenant_id: tenantId, id: relationId }, { consistent: true });
  return rel ? plain(rel) : undefined;
}

/** Every relation of the tenant (consistent, by id). */
async function listRelations(table: Table, tenantId: string): Promise<RelationRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: 'REL#' },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => plain(relations.parse(item))).filter(betweenEntities);
}

/** A relation whose two ends are entities (not an owned_by ending at a team). */
const betweenEntities = (rel: RelationRecord) => rel.to_type !== 'team';

/** Relations from or to one entity (gsi1 and gsi2), restricted to the tenant's partition. */
async function relationsOfEntity(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<RelationRecord[]> {
  const byIndex = await Promise.all(
    (['gsi1', 'gsi2'] as const).map((index) =>
      queryAll((cursor) => table.query({ index, pk: entityRelationsPk(entityId), cursor })),
    ),
  );
  const mine = byIndex.flat().filter((item) => item.pk === tenantPk(tenantId));
  const rels = mine.map((item) => plain(relations.parse(item))).filter(betweenEntities);
  return [...new Map(rels.map((rel) => [rel.id, rel])).values()];
}

/** Relations whose gsi (`gsi1`: from, `gsi2`: to) partition is `id`'s, in the tenant, oldest first. */
async function relationsAt(table: Table, tenantId: string, id: string, index: 'gsi1' | 'gsi2') {
  const items = await queryAll((cursor) => table.query({ index, pk: entityRelationsPk(id), cursor }));
  return items
    .filter((item) => item.pk === tenantPk(tenantId))
    .map((item) => plain(relations.parse(item)))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The owned_by relations from an entity to teams (an entity's owning teams), oldest first. */
export async function teamOwnersOf(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<RelationRecord[]> {
  const rels = await relationsAt(table, tenantId, entityId, 'gsi1');
  return rels.filter((rel) => rel.to_type === 'team' && rel.relation_type === 'owned_by');
}

/** The owned_by relations ending at a team (the entities it owns), oldest first. */
export async function ownedByTeam(table: Table, tenantId: string, teamId: string): Promise<RelationRecord[]> {
  const rels = await relationsAt(table, tenantId, teamId, 'gsi2');
  return rels.filter((rel) => rel.to_type === 'team');
}

/**
 * The next relations from and to one entity (up to `perIndex` read on each index, eventually
 * consistent), and whether more may follow: the entity purge deletes them a page at a time.
 */
export async function relationPageOfEntity(
  table: Table,
  tenantId: string,
  entityId: string,
  perIndex: number,
): Promise<{ relations: RelationRecord[]; more: boolean }> {
  const pages = await Promise.all(
    (['gsi1', 'gsi2'] as const).map((index) =>
      table.query({ index, pk: entityRelationsPk(entityId), limit: perIndex }),
    ),
  );
  const mine = pages.flatMap((page) => page.items).filter((item) => item.pk === tenantPk(tenantId));
  return {
    relations: relations.parseAll(mine).map(plain),
    more: pages.some((page) => page.cursor !== undefined),
  };
}

/** The entities `entityId` depends on directly (consistent read of its adjacency items). */
export async function dependenciesOf(table: Table, tenantId: string, entityId: string): Promise<string[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: `DEP#${entityId}#` },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => dependencies.parse(item).to_entity_id);
}

/** Entities one walk of the depends_on graph visits at most: the graph is acyclic, this bounds a damaged one too. */
const MAX_WALK = 200;

/**
 * The entities depending on `entityId`, directly or not (breadth first, bounded): what a root
 * cause holds back (the notifier's inhibition, the status pages' drafted notices).
 */
export async function dependentsOf(table: Table, tenantId: string, entityId: string): Promise<string[]> {
  const seen = new Set<string>([entityId]);
  const found: string[] = [];
  let frontier = [entityId];
  while (frontier.length > 0 && seen.size < MAX_WALK) {
    const next: string[] = [];
    for (const to of frontier) {
      // A dependent's depends_on relation ends at `to`: the to-entity index (gsi2) alone holds it.
      for (const rel of await relationsAt(table, tenantId, to, 'gsi2')) {
        if (rel.relation_type !== 'depends_on' || rel.to_entity_id !== to) continue;
        if (seen.has(rel.from_entity_id) || seen.size >= MAX_WALK) continue;
        seen.add(rel.from_entity_id);
        next.push(rel.from_entity_id);
      }
    }
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** The entities `entityId` depends on, directly or not (breadth first, nearest first, bounded). */
export async function upstreamsOf(table: Table, tenantId: string, entityId: string): Promise<string[]> {
  const seen = new Set<string>([entityId]);
  const found: string[] = [];
  let frontier = [entityId];
  while (frontier.length > 0 && seen.size < MAX_WALK) {
    const next: string[] = [];
    for (const from of frontier) {
      for (const to of await dependenciesOf(table, tenantId, from)) {
        if (seen.has(to) || seen.size >= MAX_WALK) continue;
        seen.add(to);
        next.push(to);
      }
    }
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** Reads of relations and of the depends_on adjacency items, bound to a table. */
export function createRelationStore(table: Table) {
  return {
    get: (tenantId: string, relationId: string) => getRelation(table, tenantId, relationId),
    list: (tenantId: string) => listRelations(table, tenantId),
    ofEntity: (tenantId: string, entityId: string) => relationsOfEntity(table, tenantId, entityId),
    dependenciesOf: (tenantId: string, entityId: string) => dependenciesOf(table, tenantId, entityId),
  };
}

export type RelationStore = ReturnType<typeof createRelationStore>;
