import { z } from 'zod';
import { actionExecutionsPage, executionDeletedOp, executionPartition } from '../actions/execution-items.ts';
import { checkKeys, entityChecksPk } from '../checks/check-keys.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem } from '../store/items.ts';
import { checkPartition, tenantPk } from '../store/partitions.ts';
import {
  type Condition,
  ConditionFailedError,
  type Item,
  type Key,
  MAX_TRANSACTION_OPS,
  type NewItem,
  type Table,
  type WriteOp,
} from '../store/table.ts';
import { catalogKeys, catalogTypes, entityRelationsPk, purgePk } from './catalog-keys.ts';
import { type PurgeJob, purgeJobSchema, relationSchema } from './records.ts';
import { deleteRelationOps } from './relation-items.ts';

/**
 * The asynchronous half of deletes. Deleting an entity writes a purge job in the same transaction;
 * this change-feed consumer works the job off in bounded rounds: each round deletes at most
 * ~500 items in transactions of at most 100 operations, then either bumps the job's `round` (the
 * MODIFY re-triggers this consumer) or deletes the job when nothing is left. Every step is
 * idempotent, so redelivered records and replays are harmless.
 *
 * - entity job: deletes the entity's relations (with their helper items) and its checks (the
 *   definition and state items of each); each check gets a partition job for everything under
 *   `CHECK#<chk_id>`.
 * - partition job: deletes every item of one check partition (results, transitions, policy, channels)
 *   or of one execution partition (its log lines).
 * - action job: deletes a deleted action's executions (found on gsi1 by action); each execution's
 *   log lines go by a partition job of their own.
 */

/** Relations read per index per round (up to 3 items each: record, uniqueness item, adjacency item). */
const RELATIONS_PER_ROUND = 50;
/** Checks read per round (3 writes each: the deletes of its definition and state, and its partition job). */
const CHECKS_PER_ROUND = 100;
/** Items of a partition deleted per round. */
const PARTITION_ITEMS_PER_ROUND = 500;
/** Executions read per round (2 writes each: the delete of its record and its partition job). */
const EXECUTIONS_PER_ROUND = 100;

const PURGEABLE_PARTITION = /^(CHECK#chk|EXEC#exe)_[0-9A-Z]{26}$/;

const checkItemSchema = z.object({ pk: z.string(), sk: z.string(), gsi1sk: z.string() });

export interface PurgeDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
}

/** The purge job that deletes an entity's relations and checks (each check's partition by a job of its own). */
export function entityPurgeJob(tenantId: string, entityId: string): NewItem {
  return {
    ...catalogKeys.entityPurgeJob(tenantId, entityId),
    ...stamp(catalogTypes.purgeJob),
    tenant_id: tenantId,
    kind: 'entity',
    entity_id: entityId,
    round: 0,
  };
}

/** The purge job that deletes every item of one check's partition (results, transitions, rollups, ...). */
export function checkPartitionPurgeJob(tenantId: string, checkId: string): NewItem {
  return partitionPurgeJob(tenantId, checkPartition(checkId));
}

/** A purge job that deletes every item of `partition` (a check's or an execution's). */
function partitionPurgeJob(tenantId: string, partition: string): NewItem {
  return {
    ...catalogKeys.partitionPurgeJob(tenantId, partition),
    ...stamp(catalogTypes.purgeJob),
    tenant_id: tenantId,
    kind: 'partition',
    partition,
    round: 0,
  };
}

/** The purge job that deletes a deleted action's executions and their log lines. */
export function actionPurgeJob(tenantId: string, actionId: string): NewItem {
  return {
    pk: purgePk(tenantId),
    sk: `ACTION#${actionId}`,
    ...stamp(catalogTypes.purgeJob),
    tenant_id: tenantId,
    kind: 'action',
    action_id: actionId,
    round: 0,
  };
}

interface Round {
  ops: WriteOp[];
  more: boolean;
}

async function entityRound(table: Table, job: Extract<PurgeJob, { kind: 'entity' }>): Promise<Round> {
  const partition = tenantPk(job.tenant_id);
  const ops: WriteOp[] = [];
  let more = false;
  for (const index of ['gsi1', 'gsi2'] as const) {
    const page = await table.query({
      index,
      pk: entityRelationsPk(job.entity_id),
      limit: RELATIONS_PER_ROUND,
    });
    more ||= page.cursor !== undefined;
    for (const item of page.items.filter(
      (i) => i.pk === partition && i.entity === catalogTypes.relation.entity,
    )) {
      ops.push(...deleteRelationOps(job.tenant_id, parseItem(relationSchema, item)));
    }
  }
  const checks = await table.query({
    index: 'gsi1',
    pk: entityChecksPk(job.entity_id),
    limit: CHECKS_PER_ROUND,
  });
  more ||= checks.cursor !== undefined;
  for (const item of checks.items.filter((i) => i.pk === partition)) {
    const check = parseItem(checkItemSchema, item);
    ops.push(
      { type: 'delete', key: { pk: check.pk, sk: check.sk } },
      { type: 'delete', key: checkKeys.state(job.tenant_id, check.gsi1sk) },
      { type: 'put', item: checkPartitionPurgeJob(job.tenant_id, check.gsi1sk) },
    );
  }
  return { ops, more };
}

async function actionRound(table: Table, job: Extract<PurgeJob, { kind: 'action' }>): Promise<Round> {
  const page = await actionExecutionsPage(table, job.action_id, EXECUTIONS_PER_ROUND);
  const ops: WriteOp[] = [];
  for (const execution of page.executions) {
    if (execution.tenant_id !== job.tenant_id) continue;
    ops.push(executionDeletedOp(execution.id), {
      type: 'put',
      item: partitionPurgeJob(job.tenant_id, executionPartition(execution.id)),
    });
  }
  return { ops, more: page.more };
}

async function partitionRound(table: Table, job: Extract<PurgeJob, { kind: 'partition' }>): Promise<Round> {
  const page = await table.query({ pk: job.partition, limit: PARTITION_ITEMS_PER_ROUND, consistent: true });
  const ops: WriteOp[] = page.items.map((item) => ({ type: 'delete', key: { pk: item.pk, sk: item.sk } }));
  return { ops, more: page.cursor !== undefined };
}

/** Writes ops in transactions of at most 100, each item once (a redelivered page may repeat keys). */
async function writeInChunks(table: Table, ops: WriteOp[]): Promise<void> {
  const byKey = new Map<string, WriteOp>();
  for (const op of ops) {
    const key: Key = op.type === 'put' ? op.item : op.key;
    byKey.set(JSON.stringify([key.pk, key.sk]), op);
  }
  const unique = [...byKey.values()];
  for (let i = 0; i < unique.length; i += MAX_TRANSACTION_OPS) {
    await table.transact(unique.slice(i, i + MAX_TRANSACTION_OPS));
  }
}

async function runRound(deps: PurgeDeps, image: Item): Promise<void> {
  const { table, clock, logger } = deps;
  const job = parseItem(purgeJobSchema, image);
  const key = { pk: image.pk, sk: image.sk };
  const current = await table.get(key, { consistent: true });
  // Finished already, or a later round owns the job: this record is a redelivery.
  if (!current || parseItem(purgeJobSchema, current).round !== job.round) return;
  const sameRound: Condition = { kind: 'compare', attr: 'round', op: '=', value: job.round };
  if (job.kind === 'partition' && !PURGEABLE_PARTITION.test(job.partition)) {
    logger.error('purge job names a partition it may not purge; dropping it', { job: key.sk });
    await table.transact([{ type: 'delete', key, condition: sameRound }]);
    return;
  }
  const round =
    job.kind === 'entity'
      ? await entityRound(table, job)
      : job.kind === 'action'
        ? await actionRound(table, job)
        : await partitionRound(table, job);
  await writeInChunks(table, round.ops);
  try {
    if (round.more) {
      await table.update({
        type: 'update',
        key,
        add: { round: 1 },
        set: { updated_at: isoTime(clock.now()) },
        condition: sameRound,
      });
    } else {
      await table.transact([{ type: 'delete', key, condition: sameRound }]);
    }
  } catch (err) {
    // Another delivery of the same round moved the job on first; its successor carries on.
    if (!(err instanceof ConditionFailedError)) throw err;
  }
  logger.info('purge round', { job: key.sk, round: job.round, writes: round.ops.length, more: round.more });
}

/** The change-feed consumer that works off purge jobs (INSERT and MODIFY of `purge_job` items). */
export function createPurgeConsumer(deps: PurgeDeps): ChangeConsumer {
  return async (changes) => {
    // One round per job per batch: older images of the same job in this batch are superseded.
    const jobs = new Map<string, Item>();
    for (const change of changes) {
      const image = change.newImage;
      if (change.eventName === 'REMOVE' || image?.entity !== catalogTypes.purgeJob.entity) continue;
      jobs.set(JSON.stringify([image.pk, image.sk]), image);
    }
    for (const image of jobs.values()) await runRound(deps, image);
  };
}
