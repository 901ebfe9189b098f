import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueSubKeyOf, shardOf } from '../../lib/domain/schedules.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadPreviousRuns, type PreviousRuns, previousRuns } from '../fixtures/previous-release-runs/load.ts';
import { startOnPreviousData, type UpgradedRuntime } from '../support/previous-data-dir.ts';
import { storedKeys } from '../support/stored-keys.ts';

/**
 * An upgrade keeps the dead man's switch of the heartbeats it finds (issue 78 point 5): the data
 * directory of 43122143 (test/fixtures/previous-release-runs) holds a heartbeat whose due entry is
 * under its shard's one key, `DUE#3`, as releases before the due sub-keys wrote it. Opened by this
 * release, its scheduler still finds it past its deadline and runs it (the run that never ended is
 * told), and its next ping puts its entry under its sub-key.
 */

describe("upgrading a data directory of the release before the due index's sub-keys (SQLite)", () => {
  let dump: PreviousRuns;
  let started: UpgradedRuntime | undefined;
  const clock = createFakeClock(Date.parse('2026-11-30T07:00:00.000Z'));

  beforeAll(async () => {
    dump = previousRuns();
    started = await startOnPreviousData(
      'vigil-upgrade-due-',
      (table) => loadPreviousRuns(table, dump),
      {},
      clock,
    );
  });
  afterAll(async () => {
    await started?.stop();
  });

  it('claims and runs a heartbeat past its deadline from the old key; its next ping moves the entry to its sub-key', async () => {
    const runtime = started?.runtime;
    if (!runtime) throw new Error('not started');
    const old = dump.items.find((item) => item.entity === 'check_state');
    expect(old).toMatchObject({ check_id: dump.check_id, gsi2pk: 'DUE#3' });
    expect(Date.parse(String(old?.next_run_at))).toBeLessThan(clock.now());
    const stateOf = () => runtime.table.get(storedKeys.checkState('', dump.check_id), { consistent: true });

    await runtime.scheduler.tick();

    // Run: the deadline is recorded as missed, and a missed heartbeat leaves the due index until it reports.
    await expect.poll(async () => (await stateOf())?.state).toBe('down');
    const missed = await stateOf();
    expect(missed).toMatchObject({ last_result_at: old?.next_run_at, next_run_at: null });
    expect(missed).not.toHaveProperty('gsi2pk');
    const oldKey = await runtime.table.query({ index: 'gsi2', pk: 'DUE#3' });
    expect(oldKey.items).toEqual([]);

    // Its next ping puts its deadline under its sub-key.
    expect((await fetch(`${runtime.url}/ping/${dump.ping_token}`)).status).toBe(200);
    const pinged = await stateOf();
    const subKey = `DUE#3#${String(dueSubKeyOf(dump.check_id)).padStart(2, '0')}`;
    expect(shardOf(dump.check_id, 4)).toBe(3);
    expect(pinged).toMatchObject({
      state: 'up',
      gsi2pk: subKey,
      gsi2sk: `${pinged?.next_run_at}#${dump.check_id}`,
    });
  });
});
