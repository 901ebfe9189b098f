import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { batchGetAll, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table, UpdateOp } from '../store/table.ts';

/**
 * Owner of the `metric_counters` items: the tenant's running totals of results and alerts by
 * status, which GET /v1/metrics exposes as Prometheus counters (docs/metrics.md). Results are
 * counted once, where they are stored once: a cell's slot as it lands (one small write after the
 * slot's put-if-absent, by the delivery that stored it, so the counter is current), a push check's
 * finished rollup bucket (in the result's transaction: a write per ping would cost more than the
 * ping's own result, issue 58); alerts where a delivery record
 * reaches its final status (lib/notify/items/alert-tally.ts: in the cloud one write per
 * notifier batch and tenant). Shards (by the writer's cell, check or delivery id), each in its own
 * partition (`METRICS#<tnt>#<shard>`), keep a big tenant's writes off one key: 100,000 cron jobs
 * closing their buckets at the top of the hour are 200,000 WCU, 1,000 a key at most (issue 78
 * point 5); a read gets them all by key and sums them. The eight shards releases before kept in the
 * tenant's partition (`METRIC_COUNTERS#<shard>`) are no longer written, and still summed.
 */

const COUNTER_SHARDS = 64;

const count = z.number().int().min(0).optional();

const countersSchema = z.object({
  results_success: count,
  results_failure: count,
  alerts_sent: count,
  alerts_failed: count,
  alerts_skipped: count,
});
export type MetricCounters = Required<z.infer<typeof countersSchema>>;

/** The sort-key prefix of the shards kept in the tenant's partition before issue 78 point 5. */
const TENANT_PARTITION_PREFIX = 'METRIC_COUNTERS#';

const counters = defineItem({
  type: itemType('metric_counters'),
  schema: countersSchema,
  key: (k: { tenant_id: string; shard: number }) => ({
    pk: `METRICS#${k.tenant_id}#${k.shard}`,
    sk: 'COUNTERS',
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', shard: '<shard 0-63>' },
});

/** The shard a writer keyed by `id` (a cell or check id) adds to: the same id, the same shard. */
function counterShard(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i += 1) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % COUNTER_SHARDS;
}

/** Adds results to the tenant's counters (in the transaction that stores them once). */
export function resultsCountedOp(
  tenantId: string,
  shardOf: string,
  results: { total: number; failures: number },
): UpdateOp {
  return counters.upsert(
    { tenant_id: tenantId, shard: counterShard(shardOf) },
    { add: { results_success: results.total - results.failures, results_failure: results.failures } },
  );
}

const COUNTED_ALERT_STATUSES = ['sent', 'failed', 'skipped'] as const;
export type CountedAlertStatus = (typeof COUNTED_ALERT_STATUSES)[number];

/**
 * Counts alerts that reached their final status, `counts` by status, on the shard of `shardOf` (a
 * delivery id): one alert in the write that sets it, or a notifier batch's alerts in one write.
 */
export function alertsCountedOp(
  tenantId: string,
  shardOf: string,
  counts: Partial<Record<CountedAlertStatus, number>>,
): UpdateOp {
  const add: Partial<Record<`alerts_${CountedAlertStatus}`, number>> = {};
  for (const status of COUNTED_ALERT_STATUSES) {
    const n = counts[status];
    if (n) add[`alerts_${status}`] = n;
  }
  return counters.upsert({ tenant_id: tenantId, shard: counterShard(shardOf) }, { add });
}

/**
 * The tenant's totals: its shards summed, by key, and the shards an earlier release kept in its
 * partition (one query; zeros before its first counted write).
 */
export async function readMetricCounters(table: Table, tenantId: string): Promise<MetricCounters> {
  const keys = Array.from({ length: COUNTER_SHARDS }, (_, shard) =>
    counters.key({ tenant_id: tenantId, shard }),
  );
  const [shards, earlier] = await Promise.all([
    batchGetAll(table, keys),
    queryAll((cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: TENANT_PARTITION_PREFIX },
        cursor,
      }),
    ),
  ]);
  const items = [...shards, ...earlier];
  const sum: MetricCounters = {
    results_success: 0,
    results_failure: 0,
    alerts_sent: 0,
    alerts_failed: 0,
    alerts_skipped: 0,
  };
  for (const shard of counters.parseAll(items)) {
    for (const name of Object.keys(sum) as (keyof MetricCounters)[]) sum[name] += shard[name] ?? 0;
  }
  return sum;
}
