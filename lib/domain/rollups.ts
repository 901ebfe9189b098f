/**
 * Results summed over time (its front door; the files in rollups/ are private): uptime and error
 * budgets, the hourly rollup bucket, sparklines and latency percentiles, a cell's member rollups.
 */

export type { StoredMemberRollup } from './rollups/cell-rollup.ts';
export {
  bucketRolledUpBy,
  cellRollsUp,
  memberRollupOf,
  rollUpMembers,
  storedMemberRollup,
} from './rollups/cell-rollup.ts';
export type { CurrentRollup } from './rollups/rollup-bucket.ts';
export { bucketStartMs, currentRollupSchema, ROLLUP_BUCKET_MS, rollResult } from './rollups/rollup-bucket.ts';
export type { ResultSample, Rollup, SparklineBucket } from './rollups/sparkline.ts';
export {
  bucketize,
  mergeRollups,
  p50FromRollup,
  ROLLUP_HISTOGRAM_SIZE,
  SPARKLINE_MAX_BUCKETS,
  SPARKLINE_MAX_HOURS,
} from './rollups/sparkline.ts';
export {
  DAY_MS,
  dateStartMs,
  dayStartMs,
  downtimeOf,
  errorBudgetRemaining,
  lastDays,
  percentileFromRollup,
  statePeriods,
  uptimeRatio,
  utcDate,
} from './rollups/uptime.ts';
