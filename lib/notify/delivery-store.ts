import { type Clock, systemClock } from '../platform/clock.ts';
import { type CursorSeal, createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem } from '../store/items.ts';
import { unexpired } from '../store/paging.ts';
import { type Condition, ConditionFailedError, type Item, type NewItem, type Table } from '../store/table.ts';
import { type DeliveryPageSource, readDeliveryPage } from './delivery-paging.ts';
import {
  channelDeliveriesPk,
  checkDeliveriesPk,
  deliveriesPk,
  notifyKeys,
  notifyTypes,
} from './notify-keys.ts';
import { type DeliveryRecord, type DeliveryStatus, deliverySchema } from './records.ts';

/** Filters and page of GET /v1/notify/logs. */
export interface DeliveryListRequest {
  check_id?: string | undefined;
  channel_id?: string | undefined;
  status?: DeliveryStatus | undefined;
  limit: number;
  cursor?: string | undefined;
}

/**
 * The stored item of a delivery record, expiring with results: in the tenant's delivery partition
 * (it outlives a deleted check, like transitions), on gsi1 under its check and on gsi2 under its
 * channel (when it names one). Delivery ids are time-ordered, so every list is newest first.
 */
export function deliveryItem(record: DeliveryRecord, retentionDays: number): NewItem {
  return {
    ...notifyKeys.delivery(record.tenant_id, record.id),
    ...stamp(notifyTypes.delivery),
    gsi1pk: checkDeliveriesPk(record.tenant_id, record.check_id),
    gsi1sk: record.id,
    ...(record.channel_id
      ? { gsi2pk: channelDeliveriesPk(record.tenant_id, record.channel_id), gsi2sk: record.id }
      : {}),
    ttl: Math.floor(Date.parse(record.created_at) / 1000) + retentionDays * 86_400,
    ...record,
  };
}

/** The partition a list reads: a channel's (gsi2), a check's (gsi1), or the whole tenant's. */
function sourceOf(tenantId: string, filter: DeliveryListRequest): DeliveryPageSource {
  if (filter.check_id) return { index: 'gsi1', pk: checkDeliveriesPk(tenantId, filter.check_id) };
  if (filter.channel_id) return { index: 'gsi2', pk: channelDeliveriesPk(tenantId, filter.channel_id) };
  return { pk: deliveriesPk(tenantId) };
}

/** Delivery records: one per event (or repeat, or test) and channel; the flow writes, the API reads. */
export function createDeliveryStore(table: Table, deps: { clock?: Clock; cursors?: CursorSeal } = {}) {
  const clock = deps.clock ?? systemClock;
  const cursors = deps.cursors ?? createCursorSeal(() => loadCursorSecret(table));
  const parse = (item: Item) => parseItem(deliverySchema, item);

  return {
    /** One delivery record of the tenant, or undefined. */
    async get(tenantId: string, id: string): Promise<DeliveryRecord | undefined> {
      const item = await table.get(notifyKeys.delivery(tenantId, id), { consistent: true });
      return item ? parse(item) : undefined;
    },

    /** Stores a new record; false when its id is already stored (a redelivered job: nothing to do twice). */
    async putNew(record: DeliveryRecord, retentionDays: number): Promise<boolean> {
      try {
        await table.transact([
          { type: 'put', item: deliveryItem(record, retentionDays), condition: { kind: 'itemNotExists' } },
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
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
      const exists: Condition = { kind: 'itemExists' };
      const item = await table.update({
        type: 'update',
        key: notifyKeys.delivery(tenantId, id),
        set: { ...set },
        condition: condition ? { kind: 'and', conditions: [exists, condition] } : exists,
      });
      return parse(item);
    },

    /**
     * A page of the tenant's records, newest first, filtered by check, channel and status. A page
     * reads at most a bounded number of records, so a rare status may answer fewer than `limit`
     * (even none) with a `next_cursor` to read on.
     */
    async list(
      tenantId: string,
      request: DeliveryListRequest,
    ): Promise<{ deliveries: DeliveryRecord[]; nextCursor: string | null }> {
      const live = unexpired(clock.now());
      const keep = (item: Item) =>
        live(item) &&
        (request.status === undefined || item.status === request.status) &&
        (request.channel_id === undefined || item.channel_id === request.channel_id);
      const page = await readDeliveryPage({ table, cursors }, sourceOf(tenantId, request), request, keep);
      return { deliveries: page.items.map(parse), nextCursor: page.nextCursor };
    },
  };
}

export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
