import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Condition, Item, Table, UpdateOp, WriteOp } from '../store/table.ts';

/**
 * The purge jobs (`purge_job`, docs/data-model.md): the asynchronous half of deletes, one item per
 * job in the tenant's purge partition. A delete writes its job in its own transaction; the purge
 * consumer (purge-consumer.ts) works it off in rounds, bumping `round` or deleting the job.
 */

const purgeJobType = itemType('purge_job');
const purgePk = (tenantId: string) => `PURGE#${tenantId}`;

const jobBase = {
  tenant_id: z.string(),
  round: z.number().int(),
  /** When the last round finished (absent before the first). */
  updated_at: z.string().optional(),
};
const entityJobSchema = z.object({ kind: z.literal('entity'), entity_id: z.string(), ...jobBase });
const partitionJobSchema = z.object({ kind: z.literal('partition'), partition: z.string(), ...jobBase });
const actionJobSchema = z.object({ kind: z.literal('action'), action_id: z.string(), ...jobBase });

export const purgeJobSchema = z.discriminatedUnion('kind', [
  entityJobSchema,
  partitionJobSchema,
  actionJobSchema,
]);
export type PurgeJob = z.infer<typeof purgeJobSchema>;
export type EntityPurgeJob = z.infer<typeof entityJobSchema>;
export type PartitionPurgeJob = z.infer<typeof partitionJobSchema>;
export type ActionPurgeJob = z.infer<typeof actionJobSchema>;

/** A deleted entity's relations and checks. */
const entityJobs = defineItem({
  type: purgeJobType,
  schema: entityJobSchema,
  key: (k: { tenant_id: string; entity_id: string }) => ({
    pk: purgePk(k.tenant_id),
    sk: `ENTITY#${k.entity_id}`,
  }),
  docKey: { tenant_id: '<tnt>', entity_id: '<ent_id>' },
});

/** Every item of one partition (a deleted check's, or a deleted execution's). */
const partitionJobs = defineItem({
  type: purgeJobType,
  schema: partitionJobSchema,
  key: (k: { tenant_id: string; partition: string }) => ({
    pk: purgePk(k.tenant_id),
    sk: `PARTITION#${k.partition}`,
  }),
  docKey: { tenant_id: '<tnt>', partition: 'CHECK#<chk_id>' },
});

/** A deleted action's executions. */
const actionJobs = defineItem({
  type: purgeJobType,
  schema: actionJobSchema,
  key: (k: { tenant_id: string; action_id: string }) => ({
    pk: purgePk(k.tenant_id),
    sk: `ACTION#${k.action_id}`,
  }),
  docKey: { tenant_id: '<tnt>', action_id: '<act_id>' },
});

/** The `entity` of purge jobs, for change-feed filters. */
export const PURGE_JOB_ENTITY = purgeJobType.entity;

/** The put of the job that purges a deleted entity's relations and checks (in the delete's transaction). */
export function entityPurgeJobOp(tenantId: string, entityId: string): WriteOp {
  return entityJobs.put({ tenant_id: tenantId, kind: 'entity', entity_id: entityId, round: 0 });
}

/** The put of the job that deletes every item of `partition` (a check's or an execution's). */
export function partitionPurgeJobOp(tenantId: string, partition: string): WriteOp {
  return partitionJobs.put({ tenant_id: tenantId, kind: 'partition', partition, round: 0 });
}

/** The put of the job that purges a deleted action's executions (in the delete's transaction). */
export function actionPurgeJobOp(tenantId: string, actionId: string): WriteOp {
  return actionJobs.put({ tenant_id: tenantId, kind: 'action', action_id: actionId, round: 0 });
}

/** Whether a stored item (a change-feed image) is a purge job. */
export function isPurgeJob(item: Item): boolean {
  return entityJobs.is(item);
}

/** A purge job as stored (a change-feed image or a read). */
export function parsePurgeJob(item: Item): PurgeJob {
  return purgeJobSchema.parse(item);
}

/** The job's position in the purge partition, for logs and de-duplication. */
export function purgeJobName(job: PurgeJob): string {
  switch (job.kind) {
    case 'entity':
      return entityJobs.key(job).sk;
    case 'partition':
      return partitionJobs.key(job).sk;
    case 'action':
      return actionJobs.key(job).sk;
  }
}

/** The job as stored now (consistent), or undefined once it is done. */
export async function readPurgeJob(table: Table, job: PurgeJob): Promise<PurgeJob | undefined> {
  switch (job.kind) {
    case 'entity':
      return entityJobs.get(table, job, { consistent: true });
    case 'partition':
      return partitionJobs.get(table, job, { consistent: true });
    case 'action':
      return actionJobs.get(table, job, { consistent: true });
  }
}

/** Holds while the job is still at the round this delivery read. */
const sameRound = (job: PurgeJob): Condition => ({
  kind: 'compare',
  attr: 'round',
  op: '=',
  value: job.round,
});

/** The update that hands the job to its next round (the MODIFY re-triggers the consumer). */
export function purgeJobNextRoundOp(job: PurgeJob, at: string): UpdateOp {
  const change = { add: { round: 1 }, set: { updated_at: at }, condition: sameRound(job) };
  switch (job.kind) {
    case 'entity':
      return entityJobs.update(job, change);
    case 'partition':
      return partitionJobs.update(job, change);
    case 'action':
      return actionJobs.update(job, change);
  }
}

/** The delete of a finished (or refused) job, held on its round. */
export function purgeJobDoneOp(job: PurgeJob): WriteOp {
  switch (job.kind) {
    case 'entity':
      return entityJobs.delete(job, sameRound(job));
    case 'partition':
      return partitionJobs.delete(job, sameRound(job));
    case 'action':
      return actionJobs.delete(job, sameRound(job));
  }
}
