import { afterEach, describe, expect, it } from 'vitest';
import { type DeliveryRecord, untriedDelivery } from '../../lib/notify/items/delivery-items.ts';
import { createDeliveryStore } from '../../lib/notify/items/delivery-store.ts';
import { readTold } from '../../lib/notify/items/told-items.ts';
import { putClaimed } from '../../lib/notify/pipeline/told.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';

/**
 * The channel's last word is claimed in the transaction that stores the alert, holding on the word
 * read (lib/notify/pipeline/told.ts): a claim that read a word another job has since moved fails
 * its condition, and the next attempt reads the word again and claims over it. Nothing is lost and
 * nothing is stored twice.
 */

const TENANT = 'tnt_01J00000000000000000000000';
const ENTITY = 'ent_01J00000000000000000000000';
const CHANNEL = 'chn_01J00000000000000000000000';
const START = Date.parse('2026-01-01T00:00:00.000Z');

function alert(atMs: number, from: 'up' | 'down', to: 'down' | 'degraded'): DeliveryRecord {
  const at = new Date(atMs).toISOString();
  const transition = newId('trn', atMs);
  return {
    id: newId('dlv', atMs),
    tenant_id: TENANT,
    channel_id: CHANNEL,
    check_id: 'chk_01J00000000000000000000000',
    entity_id: ENTITY,
    transition_id: transition,
    channel_type: 'webhook',
    kind: 'alert',
    status: 'pending',
    reason: null,
    ...untriedDelivery(atMs),
    event: {
      entity_id: ENTITY,
      entity_name: 'api',
      check_id: 'chk_01J00000000000000000000000',
      tenant_id: TENANT,
      from_state: from,
      to_state: to,
      transition_id: transition,
      timestamp: at,
    },
  };
}

describe("claiming a channel's last word", () => {
  let table: SqliteTable | undefined;
  afterEach(async () => {
    await table?.close();
  });

  it('reads the word again when another job moved it since, and claims over it', async () => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const clock = createFakeClock(START);
    const deps = { table, clock, deliveries: createDeliveryStore(table, { clock }) };
    const down = alert(START, 'up', 'down');
    expect(await putClaimed(deps, down, 30, null)).toEqual({ stored: down, replaced: undefined });

    // A job that read the channel as never told, before the down's claim: its hold fails once.
    clock.advance(60_000);
    const degraded = alert(START + 60_000, 'down', 'degraded');
    const claimed = await putClaimed(deps, degraded, 30, null, { known: { word: undefined } });

    expect(claimed?.stored).toEqual(degraded);
    expect(claimed?.replaced).toMatchObject({ state: 'down', delivery_id: down.id });
    const key = { tenant_id: TENANT, entity_id: ENTITY, channel_id: CHANNEL };
    expect(await readTold(table, key)).toMatchObject({ state: 'degraded', delivery_id: degraded.id });
    expect(await deps.deliveries.get(TENANT, degraded.id)).toMatchObject({ status: 'pending' });
  });
});
