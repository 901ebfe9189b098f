import * as z from 'zod';
import type { StoredMemberRollup } from '../../domain/rollups.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { cellPartition } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the `cell_rollup` items: a cell's finished 5-minute buckets (`ROLLUP#<bucket_start>` in
 * the cell's partition, beside its slots' results), each member's counts and latency histogram,
 * which sparklines of the cell's checks read instead of the slots. Written once per bucket from the
 * bucket's results, with a put only if absent: every writer of a bucket computes the same item
 * from the same stored slots, so a redelivered or concurrent writer changes nothing.
 */

const count = z.number().int().min(0);

const memberRollupSchema: z.ZodType<StoredMemberRollup> = z.object({
  total: count,
  failures: count,
  latency_sum: z.number().min(0),
  latency_max: z.number().min(0),
  /** Latency histogram counts by index (layout of lib/domain/rollups/sparkline.ts); absent indexes are 0. */
  histogram: z.record(z.string(), count),
});

const cellRollupSchema = z.object({
  cell_id: z.string(),
  tenant_id: z.string(),
  /** The bucket's start (ISO). */
  bucket_start: z.string(),
  /** Members with a result in the bucket, by check id. */
  members: z.record(z.string(), memberRollupSchema),
});
export type CellRollupRecord = z.infer<typeof cellRollupSchema>;

const ROLLUP_PREFIX = 'ROLLUP#';

const rollup = defineItem({
  type: itemType('cell_rollup'),
  schema: cellRollupSchema,
  key: (k: { cell_id: string; bucket_start: string }) => ({
    pk: cellPartition(k.cell_id),
    sk: `${ROLLUP_PREFIX}${k.bucket_start}`,
  }),
  // Kept as long as the results it sums (lib/checks/cells/cell-result-items.ts).
  ttl: (r, c: { retentionDays: number }) =>
    Math.floor(Date.parse(r.bucket_start) / 1000) + c.retentionDays * 86_400,
  docKey: { cell_id: '<cel_id>', bucket_start: '<bucket_start>' },
});

/** The put of a finished bucket, only if it has none yet (the first writer's item stands). */
export function cellRollupOp(record: CellRollupRecord, retentionDays: number): WriteOp {
  return rollup.put(record, { kind: 'itemNotExists' }, { retentionDays });
}

/** The cell's stored buckets starting from `fromBucket` to `toBucket` (ISO times, inclusive), oldest first. */
export async function cellRollupsBetween(
  table: Table,
  cellId: string,
  fromBucket: string,
  toBucket: string,
): Promise<CellRollupRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: cellPartition(cellId),
      sk: { op: 'between', low: `${ROLLUP_PREFIX}${fromBucket}`, high: `${ROLLUP_PREFIX}${toBucket}` },
      cursor,
    }),
  );
  return rollup.parseAll(items);
}
