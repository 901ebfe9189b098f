import * as z from 'zod';
import type { CurrentRollup } from '../../domain/rollups.ts';
import { ROLLUP_HISTOGRAM_SIZE } from '../../domain/rollups.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Table, UpdateOp } from '../../store/table.ts';

/**
 * Owner of the `rollup` items: a check's finished 5-minute buckets (`ROLLUP#<bucket_start>` in the
 * check's partition), which sparklines read instead of raw results. The bucket in progress lives
 * on the check's state item (`current_rollup`, lib/domain/rollups/rollup-bucket.ts).
 */

const count = z.number().int().min(0);

/** A stored bucket; the latency histogram counts are `h<i>` attributes, absent when 0. */
type RollupItemRecord = {
  check_id: string;
  bucket_start: string;
  total: number;
  failures: number;
  latency_sum: number;
} & { [h: `h${number}`]: number | undefined };

const rollupSchema = z
  .object({
    check_id: z.string(),
    bucket_start: z.string(),
    total: count,
    failures: count,
    latency_sum: z.number().min(0),
  })
  .catchall(z.unknown()) as unknown as z.ZodType<RollupItemRecord>;

const ROLLUP_PREFIX = 'ROLLUP#';

const rollup = defineItem({
  type: itemType('rollup'),
  schema: rollupSchema,
  key: (k: { check_id: string; bucket_start: string }) => ({
    pk: checkPartition(k.check_id),
    sk: `${ROLLUP_PREFIX}${k.bucket_start}`,
  }),
  docKey: { check_id: '<chk_id>', bucket_start: '<bucket_start>' },
});

/**
 * Adds a bucket's counts to its stored item (created if missing: `add` on absent attributes), so a
 * bucket written more than once (a late result after the bucket moved on) sums up instead of
 * overwriting.
 */
export function rollupAddOp(checkId: string, bucket: CurrentRollup, retentionDays: number): UpdateOp {
  const add: Record<`h${number}`, number> & { total: number; failures: number; latency_sum: number } = {
    total: bucket.total,
    failures: bucket.failures,
    latency_sum: bucket.latency_sum,
  };
  for (const [i, n] of Object.entries(bucket.counts)) add[`h${Number(i)}`] = n;
  return rollup.upsert(
    { check_id: checkId, bucket_start: bucket.bucket_start },
    {
      set: { check_id: checkId, bucket_start: bucket.bucket_start },
      ttl: Math.floor(Date.parse(bucket.bucket_start) / 1000) + retentionDays * 86_400,
      add,
    },
  );
}

/** A stored bucket with its histogram as an array (index -> count). */
export interface StoredRollup {
  bucket_start: string;
  total: number;
  failures: number;
  latency_sum: number;
  histogram: number[];
}

const histogramCount = count.optional();

/** The check's stored buckets starting from `fromBucket` to `toBucket` (ISO times, inclusive), strongly consistent. */
export async function rollupsBetween(
  table: Table,
  checkId: string,
  fromBucket: string,
  toBucket: string,
): Promise<StoredRollup[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: checkPartition(checkId),
      sk: { op: 'between', low: `${ROLLUP_PREFIX}${fromBucket}`, high: `${ROLLUP_PREFIX}${toBucket}` },
      cursor,
      consistent: true,
    }),
  );
  return rollup.parseAll(items).map((stored) => ({
    bucket_start: stored.bucket_start,
    total: stored.total,
    failures: stored.failures,
    latency_sum: stored.latency_sum,
    histogram: Array.from(
      { length: ROLLUP_HISTOGRAM_SIZE },
      (_, i) => histogramCount.parse(stored[`h${i}`]) ?? 0,
    ),
  }));
}
