import { describe, expect, it } from 'vitest';
import { readMetricCounters } from '../../lib/metrics/metric-counter-items.ts';
import { batchedAlertTally, immediateAlertTally } from '../../lib/notify/items/alert-tally.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';

/** Issue 58: in the cloud the notifier counts a batch's final alerts in one write per tenant. */

/** A SQLite table that counts its update calls. */
function countingTable(): { table: Table; updates: () => number } {
  const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  let updates = 0;
  const update: Table['update'] = (op) => {
    updates += 1;
    return table.update(op);
  };
  return { table: { ...table, update }, updates: () => updates };
}

const zero = { results_success: 0, results_failure: 0, alerts_sent: 0, alerts_failed: 0, alerts_skipped: 0 };
const logger = createLogger({ level: 'silent' });

describe('the batched alert tally', () => {
  it('writes nothing until flushed, then one counter write per tenant with all its counts', async () => {
    const { table, updates } = countingTable();
    const tally = batchedAlertTally(table, logger);
    await tally.count('tnt_a', 'dlv_1', 'sent');
    await tally.count('tnt_a', 'dlv_2', 'sent');
    await tally.count('tnt_a', 'dlv_3', 'skipped');
    await tally.count('tnt_b', 'dlv_4', 'failed');
    expect(updates()).toBe(0);
    expect(await readMetricCounters(table, 'tnt_a')).toEqual(zero);

    await tally.flush();

    expect(updates()).toBe(2);
    expect(await readMetricCounters(table, 'tnt_a')).toEqual({ ...zero, alerts_sent: 2, alerts_skipped: 1 });
    expect(await readMetricCounters(table, 'tnt_b')).toEqual({ ...zero, alerts_failed: 1 });
  });

  it('writes each count once: a second flush adds nothing', async () => {
    const { table, updates } = countingTable();
    const tally = batchedAlertTally(table, logger);
    await tally.count('tnt_a', 'dlv_1', 'sent');
    await tally.flush();
    await tally.flush();

    expect(updates()).toBe(1);
    expect(await readMetricCounters(table, 'tnt_a')).toEqual({ ...zero, alerts_sent: 1 });
  });
});

describe('the immediate alert tally', () => {
  it('writes each count at once', async () => {
    const { table, updates } = countingTable();
    const tally = immediateAlertTally(table);
    await tally.count('tnt_a', 'dlv_1', 'failed');

    expect(updates()).toBe(1);
    expect(await readMetricCounters(table, 'tnt_a')).toEqual({ ...zero, alerts_failed: 1 });
  });
});
