import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createDynamoTable } from '../../lib/dynamodb/dynamodb-table.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';
import { createStoreStreamSlots } from '../../lib/streams/store-stream-slots.ts';
import {
  createMemoryStreamSlots,
  type SlotAnswer,
  STREAM_RETRY_AFTER_SECONDS,
  type StreamCaps,
  type StreamHolder,
  type StreamSlot,
  type StreamSlots,
  takeStreamSlot,
} from '../../lib/streams/stream-slots.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { WAIT } from '../support/wait.ts';

const CAPS: StreamCaps = { perKey: 2, perTenant: 3 };
const LEASE_MS = 60_000;

function slotOf(answer: SlotAnswer): StreamSlot {
  if (!('slot' in answer)) throw new Error(`refused: ${answer.refused}`);
  return answer.slot;
}

let testTable: TestTable;
beforeAll(async () => {
  testTable = await createTestTable(inject('dynamodbEndpoint'));
});
afterAll(() => testTable.drop());

const tables: Record<string, () => Table> = {
  sqlite: () => createSqliteTable({ db: openSqliteDatabase(':memory:') }),
  dynamodb: () => createDynamoTable({ client: testTable.client, tableName: testTable.tableName }),
};

let run = 0;
/** Tenant and key ids of their own per test, so tests sharing a table do not meet. */
function holders() {
  run += 1;
  const tenantId = `tnt_${run}_${Date.now()}`;
  return { a: { tenantId, keyId: `key_a${run}` }, b: { tenantId, keyId: `key_b${run}` }, tenantId };
}

type Make = () => { slots: StreamSlots; clock: ReturnType<typeof createFakeClock>; table?: Table };

const adapters: [string, Make][] = [
  ['memory', () => ({ slots: createMemoryStreamSlots(CAPS), clock: createFakeClock() })],
  ...Object.entries(tables).map(([engine, make]): [string, Make] => [
    `table (${engine})`,
    () => {
      const clock = createFakeClock();
      const table = make();
      return {
        slots: createStoreStreamSlots({ table, clock, logger: silentLogger, caps: CAPS, leaseMs: LEASE_MS }),
        clock,
        table,
      };
    },
  ]),
];

describe.each(adapters)('stream slots: %s', (_name, make) => {
  const held: StreamSlot[] = [];
  afterAll(async () => {
    for (const slot of held) await slot.release();
  });
  const take = async (slots: StreamSlots, holder: StreamHolder, kind: 'status' | 'mcp_sse' = 'status') => {
    const answer = await slots.acquire(kind, holder);
    if ('slot' in answer) held.push(answer.slot);
    return answer;
  };

  it('refuses the stream past the per-key cap and the per-tenant cap across keys', async () => {
    const { slots } = make();
    const { a, b } = holders();
    await take(slots, a);
    await take(slots, a);
    const third = await take(slots, a);
    await take(slots, b);
    const overTenant = await take(slots, b);

    expect(third).toEqual({ refused: 'key' });
    expect(overTenant).toEqual({ refused: 'tenant' });
  });

  it('frees a slot when its stream ends, and a second release frees nothing more', async () => {
    const { slots } = make();
    const { a } = holders();
    const first = slotOf(await take(slots, a));
    await take(slots, a);
    await first.release();
    await first.release();

    expect('slot' in (await take(slots, a))).toBe(true);
    expect(await take(slots, a)).toEqual({ refused: 'key' });
  });

  it('counts each stream kind on its own', async () => {
    const { slots } = make();
    const { a } = holders();
    await take(slots, a, 'status');
    await take(slots, a, 'status');

    expect('slot' in (await take(slots, a, 'mcp_sse'))).toBe(true);
  });

  it("gives a client's new stream the slots of its previous one, which is told it was replaced", async () => {
    const { slots } = make();
    const { a, b } = holders();
    const browser = { ...a, client: 'browser-one-0123456789' };
    const left = slotOf(await take(slots, browser));
    await take(slots, a);
    // The key is at its cap, and the tenant holds two of its three.
    await take(slots, b);

    const again = slotOf(await take(slots, browser));
    await left.release();

    expect(left.replaced.aborted).toBe(true);
    expect(again.replaced.aborted).toBe(false);
    // The old stream's late release freed nothing of the new one's: both caps are still reached.
    expect(await take(slots, a)).toEqual({ refused: 'key' });
    expect(await take(slots, b)).toEqual({ refused: 'tenant' });
    // Another client of the same key takes nothing over.
    expect(await take(slots, { ...a, client: 'browser-two-0123456789' })).toEqual({ refused: 'key' });
  });

  it('caps nothing at 0', async () => {
    const { a } = holders();
    const open = createMemoryStreamSlots({ perKey: 0, perTenant: 0 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => open.acquire('status', a)));

    expect(answers.every((answer) => 'slot' in answer)).toBe(true);
  });
});

describe.each(Object.entries(tables))('stream lease items (%s)', (_engine, makeTable) => {
  it('lets a vanished holder hold its slots only until the lease expires, and its late release frees nothing of another', async () => {
    const table = makeTable();
    const clock = createFakeClock();
    const { a, tenantId } = holders();
    // Two Lambda instances over one table; the first one's streams stop renewing (it crashed).
    const crashed = createStoreStreamSlots({
      table,
      clock,
      logger: silentLogger,
      caps: CAPS,
      leaseMs: LEASE_MS,
    });
    const alive = createStoreStreamSlots({
      table,
      clock,
      logger: silentLogger,
      caps: CAPS,
      leaseMs: LEASE_MS,
    });
    const lost = [slotOf(await crashed.acquire('status', a)), slotOf(await crashed.acquire('status', a))];

    const whileHeld = await alive.acquire('status', a);
    clock.advance(LEASE_MS + 1);
    const afterExpiry = [await alive.acquire('status', a), await alive.acquire('status', a)];
    for (const slot of lost) await slot.release();
    const stillHeld = await alive.acquire('status', a);

    expect(whileHeld).toEqual({ refused: 'key' });
    expect(afterExpiry.every((answer) => 'slot' in answer)).toBe(true);
    expect(stillHeld).toEqual({ refused: 'key' });
    // The tenant's slot items as docs/data-model.md shows them.
    const leases = await table.query({ pk: `STREAMLEASE#status#TENANT#${tenantId}`, consistent: true });
    expect(leases.items.length).toBeGreaterThanOrEqual(2);
    for (const lease of leases.items)
      expect(lease).toMatchObject({
        sk: expect.stringMatching(/^SLOT#\d{4}$/),
        entity: 'stream_lease',
        ttl: expect.any(Number),
      });
    for (const answer of afterExpiry) await slotOf(answer).release();
  });

  it("ends a client's previous stream held by another instance at its next renewal", async () => {
    const table = makeTable();
    const clock = createFakeClock();
    const { a } = holders();
    // Renewals every 100 ms of real time; the fake clock never lets a lease expire meanwhile.
    const instance = () =>
      createStoreStreamSlots({ table, clock, logger: silentLogger, caps: CAPS, leaseMs: 300 });
    const browser = { ...a, client: 'browser-one-0123456789' };
    const left = slotOf(await instance().acquire('status', browser));
    const again = slotOf(await instance().acquire('status', browser));

    await vi.waitFor(() => expect(left.replaced.aborted).toBe(true), WAIT);
    expect(again.replaced.aborted).toBe(false);
    await left.release();
    await again.release();
  });

  it('gives each of many streams opening at once its own slot, never more than the cap', async () => {
    const table = makeTable();
    const clock = createFakeClock();
    const { a } = holders();
    const instances = Array.from({ length: 4 }, () =>
      createStoreStreamSlots({
        table,
        clock,
        logger: silentLogger,
        caps: { perKey: 3, perTenant: 0 },
        leaseMs: LEASE_MS,
      }),
    );
    const answers = await Promise.all(
      instances.flatMap((slots) => [slots.acquire('status', a), slots.acquire('status', a)]),
    );

    expect(answers.filter((answer) => 'slot' in answer).length).toBeLessThanOrEqual(3);
    expect(answers.filter((answer) => 'slot' in answer).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) if ('slot' in answer) await answer.slot.release();
  });
});

describe('takeStreamSlot', () => {
  it('answers 429 RATE_LIMITED with Retry-After when a cap is reached', async () => {
    const slots = createMemoryStreamSlots({ perKey: 1, perTenant: 5 });
    const { a } = holders();
    const slot = await takeStreamSlot(slots, 'status', a);

    await expect(takeStreamSlot(slots, 'status', a)).rejects.toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      headers: { 'Retry-After': String(STREAM_RETRY_AFTER_SECONDS) },
    });
    await slot.release();
  });
});
