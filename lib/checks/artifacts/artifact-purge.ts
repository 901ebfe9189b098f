import type { PurgeRound, PurgeStep } from '../../purge/purge-consumer.ts';
import type { PartitionPurgeJob } from '../../purge/purge-job-items.ts';
import { checkPartition } from '../../store/partitions.ts';
import { type ArtifactStore, checkArtifactsPrefix } from './artifact-store.ts';

const CHECK_PARTITION = /^CHECK#(chk_[0-9A-Z]{26})$/;

/**
 * The artifacts' step of a deleted check's partition purge (lib/purge): deletes every artifact the
 * check's results kept (`<tnt>/<chk>/`), in the job's tenant only. It writes no item, so each round
 * of the job runs it again; a second run finds nothing to delete.
 */
export function purgeCheckArtifacts(artifacts: ArtifactStore): PurgeStep<PartitionPurgeJob> {
  return async (_table, job): Promise<PurgeRound> => {
    const checkId = CHECK_PARTITION.exec(job.partition)?.[1];
    if (checkId && job.partition === checkPartition(checkId))
      await artifacts.deletePrefix(checkArtifactsPrefix(job.tenant_id, checkId));
    return { ops: [], more: false };
  };
}
