import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
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
 * notifier batch and tenant). A few shards (`METRIC_COUNTERS#<shard>`, by the writer's cell or check
 * id) keep the concurrent transactions of a big tenant off one item; a read sums them (one query).
 */

const COUNTER_SHARDS = 8;

const count = z.number().int().min(0).optional();

const countersSchema = z.object({
  results_success: count,
  results_failure: count,
  alerts_sent: count,
  alerts_failed: count,
  alerts_skipped: count,
});
export type MetricCounters = Required<z.infer<typeof countersSchema>>;

const PREFIX = 'METRIC_COUNTERS#';

const counters = defineItem({
  type: itemType('metric_counters'),
  schema: countersSchema,
  key: (k: { tenant_id: string; shard: number }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${PREFIX}${k.shard}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', shard: '<shard 0-7>' },
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

/** The tenant's totals: its shards summed (zeros before its first counted write). */
export async function readMetricCounters(table: Table, tenantId: string): Promise<MetricCounters> {
  const items = await queryAll((cursor) =>
    table.query({ pk: tenantPk(tenantId), sk: { op: 'beginsWith', prefix: PREFIX }, cursor }),
  );
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
