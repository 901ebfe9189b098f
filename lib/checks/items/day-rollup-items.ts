import * as z from 'zod';
import type { StoredMemberRollup } from '../../domain/rollups.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { cellPartition, checkPartition } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the daily rollups (uptime over 7 to 90 days without reading 26,000 5-minute items):
 * `day_rollup` (`DAY#<date>` in a check's partition, per-check and push checks) and
 * `cell_day_rollup` (`DAY#<date>` in a cell's partition, every member's day). Both are written
 * once, when the day is closed (lib/checks/results/day-rollups.ts), from that day's 5-minute rollups, with
 * a put only if absent: every writer computes the same item from the same stored buckets, and a
 * closed day never changes after that.
 */

const count = z.number().int().min(0);

const dayRollupSchema: z.ZodType<StoredMemberRollup> = z.object({
  total: count,
  failures: count,
  latency_sum: z.number().min(0),
  latency_max: z.number().min(0),
  /** Latency histogram counts by index (layout of lib/domain/rollups/sparkline.ts); absent indexes are 0. */
  histogram: z.record(z.string(), count),
});

const checkDaySchema = z.object({
  check_id: z.string(),
  /** The UTC day, YYYY-MM-DD. */
  date: z.string(),
  rollup: dayRollupSchema,
});
export type CheckDayRecord = z.infer<typeof checkDaySchema>;

const cellDaySchema = z.object({
  cell_id: z.string(),
  tenant_id: z.string(),
  date: z.string(),
  /** Members with a result on the day, by check id. */
  members: z.record(z.string(), dayRollupSchema),
});
export type CellDayRecord = z.infer<typeof cellDaySchema>;

const DAY_PREFIX = 'DAY#';
/** Kept as long as the day's last results (a day ends one day after it starts). */
const expiry = (date: string, retentionDays: number) =>
  Math.floor(Date.parse(`${date}T00:00:00.000Z`) / 1000) + (retentionDays + 1) * 86_400;

const checkDay = defineItem({
  type: itemType('day_rollup'),
  schema: checkDaySchema,
  key: (k: { check_id: string; date: string }) => ({
    pk: checkPartition(k.check_id),
    sk: `${DAY_PREFIX}${k.date}`,
  }),
  ttl: (r, c: { retentionDays: number }) => expiry(r.date, c.retentionDays),
  docKey: { check_id: '<chk_id>', date: '<yyyy-mm-dd>' },
});

const cellDay = defineItem({
  type: itemType('cell_day_rollup'),
  schema: cellDaySchema,
  key: (k: { cell_id: string; date: string }) => ({
    pk: cellPartition(k.cell_id),
    sk: `${DAY_PREFIX}${k.date}`,
  }),
  ttl: (r, c: { retentionDays: number }) => expiry(r.date, c.retentionDays),
  docKey: { cell_id: '<cel_id>', date: '<yyyy-mm-dd>' },
});

/** The put of a check's closed day, only if it has none yet (the first writer's item stands). */
export function checkDayOp(record: CheckDayRecord, retentionDays: number): WriteOp {
  return checkDay.put(record, { kind: 'itemNotExists' }, { retentionDays });
}

/** The put of a cell's closed day, only if it has none yet. */
export function cellDayOp(record: CellDayRecord, retentionDays: number): WriteOp {
  return cellDay.put(record, { kind: 'itemNotExists' }, { retentionDays });
}

/** A check's closed days from `fromDate` to `toDate` (YYYY-MM-DD, inclusive), oldest first. */
export async function checkDaysBetween(
  table: Table,
  checkId: string,
  fromDate: string,
  toDate: string,
): Promise<CheckDayRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: checkPartition(checkId),
      sk: { op: 'between', low: `${DAY_PREFIX}${fromDate}`, high: `${DAY_PREFIX}${toDate}` },
      cursor,
    }),
  );
  return checkDay.parseAll(items);
}

/** A cell's closed days from `fromDate` to `toDate` (YYYY-MM-DD, inclusive), oldest first. */
export async function cellDaysBetween(
  table: Table,
  cellId: string,
  fromDate: string,
  toDate: string,
): Promise<CellDayRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: cellPartition(cellId),
      sk: { op: 'between', low: `${DAY_PREFIX}${fromDate}`, high: `${DAY_PREFIX}${toDate}` },
      cursor,
    }),
  );
  return cellDay.parseAll(items);
}
