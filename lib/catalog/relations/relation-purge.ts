import type { PurgeRound } from '../../purge/purge-consumer.ts';
import type { EntityPurgeJob } from '../../purge/purge-job-items.ts';
import type { Table } from '../../store/table.ts';
import { deleteRelationOps, relationPageOfEntity } from './relation-items.ts';

/** Relations read per index per round (up to 3 items each: record, uniqueness item, adjacency item). */
const RELATIONS_PER_ROUND = 50;

/** The catalog's step of an entity purge (lib/purge): deletes the next relations from and to the deleted entity. */
export async function purgeEntityRelations(table: Table, job: EntityPurgeJob): Promise<PurgeRound> {
  const page = await relationPageOfEntity(table, job.tenant_id, job.entity_id, RELATIONS_PER_ROUND);
  return { ops: page.relations.flatMap((rel) => deleteRelationOps(job.tenant_id, rel)), more: page.more };
}
