import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryRecord, DeliveryStatus } from '../../lib/notify/items/delivery-items.ts';
import { deliveryCreatedOp } from '../../lib/notify/items/delivery-items.ts';
import { createDeliveryStore } from '../../lib/notify/items/delivery-store.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';

const TENANT = 'tnt_01J00000000000000000000000';
const CHECK = 'chk_01J00000000000000000000000';
const START = Date.parse('2026-01-01T00:00:00.000Z');

function record(index: number, status: DeliveryStatus): DeliveryRecord {
  const at = new Date(START + index * 1000).toISOString();
  const transition = newId('trn', START);
  return {
    id: newId('dlv', START + index * 1000),
    tenant_id: TENANT,
    channel_id: null,
    check_id: CHECK,
    entity_id: 'ent_01J00000000000000000000000',
    transition_id: transition,
    channel_type: null,
    kind: 'alert',
    status,
    reason: status === 'skipped' ? 'no channels' : null,
    attempts: 0,
    attempt_log: [],
    sent_at: null,
    error: null,
    created_at: at,
    updated_at: at,
    event: {
      entity_id: 'ent_01J00000000000000000000000',
      entity_name: 'api',
      check_id: CHECK,
      tenant_id: TENANT,
      from_state: 'up',
      to_state: 'down',
      transition_id: transition,
      timestamp: at,
    },
  };
}

describe('delivery log pages', () => {
  let table: SqliteTable;
  let clock: ReturnType<typeof createFakeClock>;

  beforeEach(async () => {
    clock = createFakeClock(START + 86_400_000);
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    // The 3 oldest records failed; 1,200 newer ones were skipped.
    const records = Array.from({ length: 1203 }, (_, i) => record(i, i < 3 ? 'failed' : 'skipped'));
    for (let i = 0; i < records.length; i += 100) {
      await table.transact(records.slice(i, i + 100).map((r) => deliveryCreatedOp(r, 30)));
    }
  });
  afterEach(async () => {
    await table.close();
  });

  it('stops a filtered page after 1,000 records read and continues from there with the cursor', async () => {
    const store = createDeliveryStore(table, { clock });
    for (const filter of [{}, { check_id: CHECK }]) {
      const first = await store.list(TENANT, { ...filter, status: 'failed', limit: 50 });
      expect(first.deliveries).toEqual([]);
      expect(first.nextCursor).not.toBeNull();
      const second = await store.list(TENANT, {
        ...filter,
        status: 'failed',
        limit: 50,
        cursor: first.nextCursor ?? undefined,
      });
      expect(second.deliveries.map((d) => d.status)).toEqual(['failed', 'failed', 'failed']);
      expect(second.deliveries[0]?.created_at).toBe(new Date(START + 2000).toISOString());
      expect(second.nextCursor).toBeNull();
    }
  });

  it('answers a full page without a filter and ends with a null cursor after the last record', async () => {
    const store = createDeliveryStore(table, { clock });
    let cursor: string | undefined;
    let total = 0;
    let pages = 0;
    do {
      const page = await store.list(TENANT, { limit: 200, cursor });
      total += page.deliveries.length;
      pages += 1;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(total).toBe(1203);
    expect(pages).toBe(7);
  });

  it('stores a record once: a second put of its id answers false and changes nothing', async () => {
    const store = createDeliveryStore(table, { clock });
    const first = { ...record(5000, 'pending'), attempts: 0 };
    expect(await store.putNew(first, 30)).toBe(true);
    expect(await store.putNew({ ...first, status: 'sent', attempts: 1 }, 30)).toBe(false);
    expect(await store.get(TENANT, first.id)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('leaves out records whose retention has passed', async () => {
    clock.advance(31 * 86_400_000);
    const store = createDeliveryStore(table, { clock });
    const page = await store.list(TENANT, { limit: 10 });
    expect(page.deliveries).toEqual([]);
  });
});
