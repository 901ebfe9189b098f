import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../lib/platform/clock.ts';
import {
  evictOldPings,
  latestPings,
  newPing,
  nextPingSeq,
  pingRecordedOp,
  pingTtl,
} from '../../lib/push/log/ping-items.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { checkPartition } from '../../lib/store/partitions.ts';
import type { Table } from '../../lib/store/table.ts';

/**
 * The ping log's bound (docs/heartbeats.md "The ping log's bounds"; lib/push/log/ping-items.ts):
 * each ping keeps its number, and once written the check's oldest pings N or more numbers back are
 * deleted. Over generated timelines on a real SQLite table, with evictions that fail (a crash or a
 * store outage after the ping was acknowledged) and a log that starts with pings written the way
 * before numbers were kept (a `ping_slot` each): no ping among the newest N is ever deleted, and
 * once evictions run again the log shrinks back to N. Seed printed; replay with VIGIL_MODEL_SEED.
 */

const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
const CHECK = 'chk_model';
const RETENTION_DAYS = 30;
const T0 = Date.parse('2026-11-27T00:00:00.000Z');

/** `n` pings as the code before wrote them: the counter, the ping without its number, its slot. */
async function writeSlottedPings(table: Table, n: number, keep: number, atMs: () => number) {
  for (let i = 0; i < n; i += 1) {
    const seq = await nextPingSeq(table, CHECK);
    const ping = newPing(
      {
        check_id: CHECK,
        kind: 'success',
        body: '',
        method: 'GET',
        source_ip: '127.0.0.1',
        user_agent: 'curl',
      },
      atMs(),
    );
    const ttl = pingTtl(ping, RETENTION_DAYS);
    await table.transact([
      pingRecordedOp(ping, RETENTION_DAYS),
      {
        type: 'put',
        item: {
          pk: checkPartition(CHECK),
          sk: `PINGNO#${seq}`,
          entity: 'ping_slot',
          schema_version: 1,
          check_id: CHECK,
          seq,
          ping_id: ping.id,
          ttl,
        },
      },
    ]);
    // As the code before did: the slot keep numbers back.
    if (seq - keep >= 1) {
      const slot = await table.get({ pk: checkPartition(CHECK), sk: `PINGNO#${seq - keep}` });
      if (slot)
        await table.transact([
          { type: 'delete', key: { pk: checkPartition(CHECK), sk: `PING#${String(slot.ping_id)}` } },
          { type: 'delete', key: { pk: checkPartition(CHECK), sk: `PINGNO#${seq - keep}` } },
        ]);
    }
  }
}

/** One ping as the ping service writes it now; `evicts` false: the eviction after it did not happen. */
async function writePing(table: Table, keep: number, atMs: number, evicts: boolean) {
  const seq = await nextPingSeq(table, CHECK);
  const ping = newPing(
    { check_id: CHECK, kind: 'success', body: '', method: 'GET', source_ip: '127.0.0.1', user_agent: 'curl' },
    atMs,
  );
  await table.transact([pingRecordedOp({ ...ping, seq }, RETENTION_DAYS)]);
  if (evicts) await evictOldPings(table, CHECK, seq, keep);
  return ping.id;
}

describe('the ping log keeps the last N pings', () => {
  it(`never deletes one of the newest N, and shrinks back to N once evictions run (seed ${seed})`, async () => {
    console.info(`ping log eviction model: seed ${seed}`);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 8 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
        async (keep, slotted, evictions) => {
          const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
          let ms = T0;
          const tick = () => {
            ms += 1000;
            return ms;
          };
          await writeSlottedPings(table, slotted, keep, tick);
          const written: string[] = (await latestPings(table, CHECK, 1000)).map((p) => p.id).reverse();
          const timeline = [...evictions, ...Array.from({ length: slotted + evictions.length }, () => true)];
          for (const evicts of timeline) {
            written.push(await writePing(table, keep, tick(), evicts));
            const kept = new Set((await latestPings(table, CHECK, 1000)).map((p) => p.id));
            for (const id of written.slice(-keep)) expect(kept, `${isoTime(ms)}: ${id} kept`).toContain(id);
          }
          // Every eviction ran for as many pings as could be behind: the log is the newest N again.
          const final = (await latestPings(table, CHECK, 1000)).map((p) => p.id);
          expect(final).toEqual(written.slice(-keep).reverse());
        },
      ),
      { seed, numRuns: 40 },
    );
  });
});
