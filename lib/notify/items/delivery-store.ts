import type { CountedAlertStatus } from '../../metrics/metric-counter-items.ts';
import { type Clock, systemClock } from '../../platform/clock.ts';
import { type CursorSeal, createCursorSeal } from '../../store/cursor-seal.ts';
import { loadCursorSecret } from '../../store/cursor-secret.ts';
import { type Condition, ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { type AlertTally, immediateAlertTally } from './alert-tally.ts';
import {
  type DeliveryListRequest,
  type DeliveryRecord,
  deliveryChangedOp,
  deliveryCreatedOp,
  getDelivery,
  parseDelivery,
  readDeliveryLog,
} from './delivery-items.ts';

/** A record that reached a final status and is an alert (not a test send): what GET /v1/metrics counts. */
function countedStatus(record: Pick<DeliveryRecord, 'status' | 'kind'>): CountedAlertStatus | undefined {
  if (record.kind === 'test') return undefined;
  return record.status === 'sent' || record.status === 'failed' || record.status === 'skipped'
    ? record.status
    : undefined;
}

/** Delivery records (delivery-items.ts): the flow writes, the API reads. */
export function createDeliveryStore(
  table: Table,
  deps: { clock?: Clock; cursors?: CursorSeal; alerts?: AlertTally } = {},
) {
  const clock = deps.clock ?? systemClock;
  const alerts = deps.alerts ?? immediateAlertTally(table);
  const cursors = deps.cursors ?? createCursorSeal(() => loadCursorSecret(table));

  return {
    /** One delivery record of the tenant, or undefined. */
    get: (tenantId: string, id: string): Promise<DeliveryRecord | undefined> =>
      getDelivery(table, tenantId, id),

    /**
     * Stores a new record; false when its id is already stored (a redelivered job: nothing to do
     * twice). `also` are writes of the same transaction (a channel's last word, told.ts): when one
     * of their conditions fails instead, nothing is written and ConditionFailedError is thrown.
     */
    async putNew(record: DeliveryRecord, retentionDays: number, also: WriteOp[] = []): Promise<boolean> {
      try {
        await table.transact([deliveryCreatedOp(record, retentionDays), ...also]);
        // A record stored final (skipped) is counted after its put (only if absent, so once): a
        // separate update costs half of a two-item transaction, and a crash between loses one count.
        const counted = countedStatus(record);
        if (counted) await alerts.count(record.tenant_id, record.id, counted);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError && error.failed.includes(0)) return false;
        throw error;
      }
    },

    /**
     * Sets fields of a stored record (never creates one) while `condition` holds; answers the record
     * after the write. Throws ConditionFailedError when the record is missing or the condition fails.
     */
    async update(
      tenantId: string,
      id: string,
      set: Partial<Omit<DeliveryRecord, 'id' | 'tenant_id'>>,
      condition?: Condition,
    ): Promise<DeliveryRecord> {
      const record = parseDelivery(await table.update(deliveryChangedOp(tenantId, id, set, condition)));
      // The write that makes a record final moves the alert counters (GET /v1/metrics) after it: a
      // crash between the two loses one count, never adds one; the flow makes a record final once.
      const counted = set.status === undefined ? undefined : countedStatus(record);
      if (counted) await alerts.count(tenantId, id, counted);
      return record;
    },

    /**
     * A page of the tenant's records, newest first, filtered by check, channel and status. A page
     * reads at most a bounded number of records, so a rare status may answer fewer than `limit`
     * (even none) with a `next_cursor` to read on.
     */
    list(
      tenantId: string,
      request: DeliveryListRequest,
    ): Promise<{ deliveries: DeliveryRecord[]; nextCursor: string | null }> {
      return readDeliveryLog({ table, cursors }, tenantId, request, clock.now());
    },
  };
}

export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
