import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { positionAt } from '../../lib/status/stream-events.ts';
import { createStatusStream, REPLAY_MAX_EVENTS } from '../../lib/status/stream-service.ts';
import { createMemoryStreamSlots } from '../../lib/streams/stream-slots.ts';
import { secondsApart, seedTransitions } from './transition-seed.ts';

/**
 * A replay must leave the event loop to other work between its chunks. Over SQLite every read
 * answers without I/O, so a replay that never yields runs start to end before anything else
 * (another request, /healthz) gets a turn: this is where that shows without any timing.
 */
describe('the status stream replay over SQLite', () => {
  const TENANT = 'tnt_01J9Z3ZZZZZZZZZZZZZZZZZZZZ';
  let table: SqliteTable;

  beforeAll(async () => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    await seedTransitions(table, TENANT, secondsApart(REPLAY_MAX_EVENTS, 60_000));
  });
  afterAll(() => table.close());

  it('yields to the event loop while streams replay, so other work runs before they finish', async () => {
    const { service } = createStatusStream(
      {
        table,
        clock: systemClock,
        logger: silentLogger,
        slots: createMemoryStreamSlots({ perKey: 0, perTenant: 0 }),
      },
      { follow: 'push' },
    );
    const replayed: number[] = [];
    const readers = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        replayed[i] = 0;
        const stream = await service.open({ tenantId: TENANT, keyId: 'key_reader' }, positionAt(0));
        const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
        // Wrapped: an async function returning the promise itself would make Promise.all wait for it.
        const done = (async () => {
          while ((replayed[i] ?? 0) < REPLAY_MAX_EVENTS) {
            const { value, done } = await reader.read();
            if (done) break;
            replayed[i] = (replayed[i] ?? 0) + (value.match(/event: state_change\n/g)?.length ?? 0);
          }
          await reader.cancel();
        })();
        return { done };
      }),
    );
    // Other work queued while the replays run: it gets its turn at the replays' first yield.
    await nextTurn();
    const replayedMeanwhile = replayed.reduce((a, b) => a + b, 0);
    await Promise.all(readers.map((r) => r.done));

    expect(replayed).toEqual(Array.from({ length: 5 }, () => REPLAY_MAX_EVENTS));
    expect(replayedMeanwhile).toBeLessThan(5 * REPLAY_MAX_EVENTS);
  });
});
