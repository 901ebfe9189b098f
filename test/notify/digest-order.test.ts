import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeOrder, type StateChangeEvent } from '../../lib/domain/states.ts';
import {
  batchJoinedOps,
  batchOpenedOps,
  type DigestEntry,
  readBatch,
} from '../../lib/notify/items/group-items.ts';
import { deterministicId } from '../../lib/platform/ids.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';

/**
 * A digest tells its entries in the order of the changes they carry, whatever their delivery ids
 * (DECISIONS.md "Alert truth (wave 5)"): an escalation's id is timed by the change that opened its
 * incident while it tells the entity's state now. Found by the alert-truth model (seed 474074076):
 * a route's digest held the escalation's "degraded" before the older alert's "down", so its last
 * word was down while the entity was degraded.
 */

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const key = { tenant_id: 'tnt_a', channel_id: 'chn_a', group_id: 'route:entity:ent_a' };
const BATCH = 'dig_a';

const event = (toState: string, atMs: number, transitionId: string): StateChangeEvent => ({
  entity_id: 'ent_a',
  entity_name: 'api',
  check_id: 'chk_a',
  tenant_id: 'tnt_a',
  from_state: 'up',
  to_state: toState,
  transition_id: transitionId,
  timestamp: new Date(atMs).toISOString(),
});

/** A batch holding `entries` in the order given (the order their jobs folded them). */
async function storedBatch(entries: DigestEntry[]) {
  const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  const [first, ...rest] = entries;
  if (!first) throw new Error('a batch holds at least one entry');
  const meta = { ...key, by: 'entity' as const, key: 'ent_a', name: 'api' };
  await table.transact(batchOpenedOps(meta, BATCH, T0 + 61_000, first));
  for (const next of rest) await table.transact(batchJoinedOps(key, BATCH, next));
  return table;
}

const entryOf = (deliveryId: string, kind: string, e: StateChangeEvent): DigestEntry => ({
  tenant_id: 'tnt_a',
  batch_id: BATCH,
  delivery_id: deliveryId,
  kind,
  event: e,
});

describe('a digest batch read for its flush', () => {
  it("ends on the newest change when an escalation's id sorts before an older alert's", async () => {
    const down = event('down', T0 + 2_000, 'trn_down');
    const degraded = { ...event('degraded', T0 + 3_000, 'trn_degraded'), from_state: 'down' };
    // Both ids carry the time of the down (the escalation's is its incident's opening change); by id
    // the escalation comes first.
    const escalationId = `${deterministicId('dlv', T0 + 2_000, '').slice(0, 14)}0000000000000000`;
    const alertId = `${deterministicId('dlv', T0 + 2_000, '').slice(0, 14)}ZZZZZZZZZZZZZZZZ`;
    const table = await storedBatch([
      entryOf(alertId, 'alert', down),
      entryOf(escalationId, 'escalation', degraded),
    ]);
    const told = (await readBatch(table, 'tnt_a', BATCH)).map((e) => `${e.kind} ${e.event.to_state}`);
    expect(told).toEqual(['alert down', 'escalation degraded']);
  });

  const seed = process.env.VIGIL_PROPERTY_SEED
    ? Number(process.env.VIGIL_PROPERTY_SEED)
    : Date.now() % 2 ** 31;
  it(`lists any entries in change order, whatever their ids and folding order (property, seed ${seed})`, async () => {
    const generated = fc.uniqueArray(
      fc.record({
        at: fc.integer({ min: 0, max: 5 }),
        transition: fc.integer({ min: 0, max: 3 }),
        idTime: fc.integer({ min: 0, max: 5 }),
        idSeed: fc.string({ maxLength: 4 }),
        state: fc.constantFrom('up', 'down', 'degraded'),
        kind: fc.constantFrom('alert', 'escalation', 'repeat', 'recovery'),
      }),
      { minLength: 1, maxLength: 8, selector: (r) => `${r.idTime}|${r.idSeed}` },
    );
    await fc.assert(
      fc.asyncProperty(generated, async (specs) => {
        const entries = specs.map((s) =>
          entryOf(
            deterministicId('dlv', T0 + s.idTime * 1_000, s.idSeed),
            s.kind,
            event(s.state, T0 + s.at * 1_000, `trn_${s.transition}`),
          ),
        );
        const read = await readBatch(await storedBatch(entries), 'tnt_a', BATCH);
        expect(read).toHaveLength(entries.length);
        const orders = read.map((e) => changeOrder(e.event));
        expect(orders).toEqual([...orders].sort());
      }),
      { seed, numRuns: 200 },
    );
  });
});
