import { alertsCountedOp, type CountedAlertStatus } from '../../metrics/metric-counter-items.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Table } from '../../store/table.ts';

/**
 * How the notifier counts an alert whose delivery record reached its final status (the alert
 * counters of GET /v1/metrics), after the write that made it final: the flow makes a record final
 * once, so a count is never added twice; a crash before the count's write loses it.
 */
export interface AlertTally {
  count(tenantId: string, deliveryId: string, status: CountedAlertStatus): Promise<void>;
  /** Writes the counts not written yet (nothing for the immediate tally). */
  flush(): Promise<void>;
}

/** One counter write per counted alert, at once: the local runtime's notifier, and the default. */
export function immediateAlertTally(table: Table): AlertTally {
  return {
    async count(tenantId, deliveryId, status) {
      await table.update(alertsCountedOp(tenantId, deliveryId, { [status]: 1 }));
    },
    flush: async () => {},
  };
}

/**
 * Counts kept in memory until `flush`, then one counter write per tenant (on the shard of its first
 * counted delivery): the notifier function flushes after each SQS batch (issue 58: a write per
 * alert was a third of a skipped alert's cost). A crash between a batch's final writes and its
 * flush loses that batch's counts, never adds one; a failed flush is logged and its counts dropped.
 */
export function batchedAlertTally(table: Table, logger: Logger): AlertTally {
  let pending = new Map<string, { shardOf: string; counts: Partial<Record<CountedAlertStatus, number>> }>();
  return {
    async count(tenantId, deliveryId, status) {
      const tenant = pending.get(tenantId) ?? { shardOf: deliveryId, counts: {} };
      tenant.counts[status] = (tenant.counts[status] ?? 0) + 1;
      pending.set(tenantId, tenant);
    },
    async flush() {
      const taken = pending;
      pending = new Map();
      await Promise.all(
        [...taken].map(async ([tenantId, { shardOf, counts }]) => {
          try {
            await table.update(alertsCountedOp(tenantId, shardOf, counts));
          } catch (error) {
            logger.error('alert counters not written', { tenant_id: tenantId, counts, error });
          }
        }),
      );
    },
  };
}
