import { type Clock, isoTime } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import { partitionDeletes } from '../store/partition-purge.ts';
import {
  ConditionFailedError,
  type Item,
  type Key,
  MAX_TRANSACTION_OPS,
  type Table,
  type WriteOp,
} from '../store/table.ts';
import {
  type ActionPurgeJob,
  type EntityPurgeJob,
  isPurgeJob,
  type PartitionPurgeJob,
  type PurgeJob,
  parsePurgeJob,
  purgeJobDoneOp,
  purgeJobName,
  purgeJobNextRoundOp,
  readPurgeJob,
} from './purge-job-items.ts';

/**
 * The asynchronous half of deletes. Deleting an entity, a check or an action writes a purge job in
 * the same transaction; this change-feed consumer works the job off in bounded rounds: each round
 * runs the steps registered for the job's kind (each owner purges its own items: the catalog an
 * entity's relations, the checks engine its checks, the actions an action's executions), writes
 * their deletes in transactions of at most 100 operations, then either bumps the job's `round` (the
 * MODIFY re-triggers this consumer) or deletes the job when no step has more. Every step is
 * idempotent, so redelivered records and replays are harmless.
 */

/** What one step of a round deletes (and writes: follow-up jobs), and whether it has more after. */
export interface PurgeRound {
  ops: WriteOp[];
  more: boolean;
}

export type PurgeStep<J extends PurgeJob> = (table: Table, job: J) => Promise<PurgeRound>;

/**
 * The owners' steps of each job kind, which each feature declares in its face (its `purge`, built
 * by ./purge-steps.ts over the feature list). lib/purge deletes a
 * partition job's whole partition itself; its steps delete what hangs off the partition elsewhere
 * (push's token lookups), each round alongside the partition's own deletes.
 */
export interface PurgeSteps {
  entity: PurgeStep<EntityPurgeJob>[];
  action: PurgeStep<ActionPurgeJob>[];
  partition?: PurgeStep<PartitionPurgeJob>[];
}

export interface PurgeDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  steps: PurgeSteps;
}

/**
 * The only partitions a partition job may purge: a check's and an execution's (ids of the form the
 * id factory makes), so a damaged job can never empty a tenant's partition.
 */
const PURGEABLE_PARTITION = /^(CHECK#chk|EXEC#exe)_[0-9A-Z]{26}$/;

/** Items of a partition deleted per round. */
const PARTITION_ITEMS_PER_ROUND = 500;

/**
 * A partition job's round: deletes the next items of a whole partition, whatever their owners (a
 * check's partition holds the checks engine's, notify's and push's items). It builds no item's
 * key: it deletes the keys it reads.
 */
function purgePartition(table: Table, job: PartitionPurgeJob): Promise<PurgeRound> {
  return partitionDeletes(table, job.partition, PARTITION_ITEMS_PER_ROUND);
}

async function runSteps<J extends PurgeJob>(
  table: Table,
  steps: PurgeStep<J>[],
  job: J,
): Promise<PurgeRound> {
  const rounds = await Promise.all(steps.map((step) => step(table, job)));
  return { ops: rounds.flatMap((r) => r.ops), more: rounds.some((r) => r.more) };
}

function roundOf(deps: PurgeDeps, job: PurgeJob): Promise<PurgeRound> {
  switch (job.kind) {
    case 'entity':
      return runSteps(deps.table, deps.steps.entity, job);
    case 'partition':
      return runSteps(deps.table, [purgePartition, ...(deps.steps.partition ?? [])], job);
    case 'action':
      return runSteps(deps.table, deps.steps.action, job);
  }
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
  const job = parsePurgeJob(image);
  const name = purgeJobName(job);
  const current = await readPurgeJob(table, job);
  // Finished already, or a later round owns the job: this record is a redelivery.
  if (!current || current.round !== job.round) return;
  if (job.kind === 'partition' && !PURGEABLE_PARTITION.test(job.partition)) {
    logger.error('purge job names a partition it may not purge; dropping it', { job: name });
    await table.transact([purgeJobDoneOp(job)]);
    return;
  }
  const round = await roundOf(deps, job);
  await writeInChunks(table, round.ops);
  try {
    if (round.more) await table.update(purgeJobNextRoundOp(job, isoTime(clock.now())));
    else await table.transact([purgeJobDoneOp(job)]);
  } catch (err) {
    // Another delivery of the same round moved the job on first; its successor carries on.
    if (!(err instanceof ConditionFailedError)) throw err;
  }
  logger.info('purge round', { job: name, round: job.round, writes: round.ops.length, more: round.more });
}

/** The change-feed consumer that works off purge jobs (INSERT and MODIFY of `purge_job` items). */
export function createPurgeConsumer(deps: PurgeDeps): ChangeConsumer {
  return async (changes) => {
    // One round per job per batch: older images of the same job in this batch are superseded.
    const jobs = new Map<string, Item>();
    for (const change of changes) {
      const image = change.newImage;
      if (change.eventName === 'REMOVE' || !image || !isPurgeJob(image)) continue;
      jobs.set(JSON.stringify([image.pk, image.sk]), image);
    }
    for (const image of jobs.values()) await runRound(deps, image);
  };
}
