import { describe, expect, it } from 'vitest';
import { dueCheckPages } from '../../lib/checks/items/due-pages.ts';
import type { NewItem, Table } from '../../lib/store/table.ts';
import { tableEngines } from '../support/table-engines.ts';

/**
 * The merged read of a due shard (lib/checks/items/due-pages.ts) over both engines: its 64
 * sub-keys and the key of earlier releases, each read in pages of its own (at most 100 entries a
 * query), merged into pages of the asked size, oldest due first, every entry once. One sub-key
 * holds more than a query's 100, so the merge reads it again while it pages.
 */

const BASE_MS = Date.parse('2026-03-02T03:00:00.000Z');
const BEFORE = new Date(BASE_MS + 600_000).toISOString();

/** A push check's state item with its due entry under `gsi2pk`, due `offsetMs` after BASE_MS. */
function entry(n: number, gsi2pk: string, offsetMs: number): NewItem {
  const checkId = `chk_${String(n).padStart(26, '0')}`;
  const nextRunAt = new Date(BASE_MS + offsetMs).toISOString();
  return {
    pk: `CHECK#${checkId}`,
    sk: 'STATE',
    entity: 'check_state',
    schema_version: 1,
    check_id: checkId,
    tenant_id: 'tnt_due_pages',
    execution_mode: 'push',
    interval_seconds: 3600,
    definition_version: 1,
    state: 'up',
    consecutive_failures: 0,
    last_result_at: null,
    next_run_at: nextRunAt,
    version: 1,
    gsi2pk,
    gsi2sk: `${nextRunAt}#${checkId}`,
  };
}

async function putAll(table: Table, items: NewItem[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    await table.transact(items.slice(i, i + 25).map((item) => ({ type: 'put' as const, item })));
  }
}

describe.each(tableEngines())('the merged read of a due shard ($engine)', ({ make }) => {
  it('reads every sub-key and the old key, oldest due first, in pages of the asked size, each entry once', async () => {
    const table = make();
    // Offsets spread over the window and out of id order (a prime stride), each distinct.
    const offset = (n: number) => (n * 7919) % 599_000;
    const due = [
      ...Array.from({ length: 250 }, (_, n) => entry(n, 'DUE#0#07', offset(n))),
      ...Array.from({ length: 49 }, (_, i) =>
        entry(250 + i, `DUE#0#${String(i % 64).padStart(2, '0')}`, offset(250 + i)),
      ),
      entry(299, 'DUE#0', offset(299)),
    ];
    const notDue = [
      // Due at or after the window's end, and another shard's.
      ...Array.from({ length: 5 }, (_, i) => entry(300 + i, 'DUE#0#07', 600_000 + i)),
      ...Array.from({ length: 3 }, (_, i) => entry(305 + i, 'DUE#1#07', offset(305 + i))),
    ];
    await putAll(table, [...due, ...notDue]);

    const pages: { ids: string[]; more: boolean }[] = [];
    for await (const page of dueCheckPages(table, { shard: 0, before: BEFORE, pageSize: 120 })) {
      pages.push({ ids: page.checks.map((c) => c.check_id), more: page.more });
    }

    expect(pages.map((p) => [p.ids.length, p.more])).toEqual([
      [120, true],
      [120, true],
      [60, false],
    ]);
    const inOrder = [...due].sort((a, b) => String(a.gsi2sk).localeCompare(String(b.gsi2sk)));
    expect(pages.flatMap((p) => p.ids)).toEqual(inOrder.map((item) => item.check_id));
  });

  it('ends at once on a shard with nothing due', async () => {
    const table = make();
    const pages = [];
    for await (const page of dueCheckPages(table, { shard: 3, before: BEFORE, pageSize: 500 }))
      pages.push(page);
    expect(pages).toEqual([]);
  });
});
