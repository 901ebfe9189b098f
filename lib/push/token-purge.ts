import type { PurgeRound } from '../purge/purge-consumer.ts';
import type { PartitionPurgeJob } from '../purge/purge-job-items.ts';
import type { Table } from '../store/table.ts';
import { listPushTokens, pushTokenLookupDeletes } from './tokens/push-token-items.ts';

/** A check's partition, as its purge job names it. */
const CHECK_PARTITION = /^CHECK#(chk_[0-9A-Z]{26})$/;

/**
 * Push's step of a check partition's purge (lib/purge): the lookup items of the check's UUID ping
 * tokens live outside the partition, so they are deleted here, read from the token items while
 * those are still there (each round reads before any of its deletes is written, and a round that
 * deletes a token item also sees it here). Idempotent: a later round finds no token left.
 */
export async function purgePingTokenLookups(table: Table, job: PartitionPurgeJob): Promise<PurgeRound> {
  const checkId = CHECK_PARTITION.exec(job.partition)?.[1];
  if (!checkId) return { ops: [], more: false };
  return { ops: pushTokenLookupDeletes(await listPushTokens(table, checkId)), more: false };
}
