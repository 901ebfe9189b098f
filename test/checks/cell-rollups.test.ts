import { describe, expect, it } from 'vitest';
import { RAW_SPARKLINE_MAX_CELL_SLOTS, readSparkline } from '../../lib/checks/results/sparkline-reads.ts';
import {
  bucketRolledUpBy,
  memberRollupOf,
  rollUpMembers,
  storedMemberRollup,
} from '../../lib/domain/rollups/cell-rollup.ts';
import { histogramIndex } from '../../lib/domain/rollups/sparkline.ts';
import { ValidationError } from '../../lib/platform/errors.ts';
import type { Item, QueryInput, Table } from '../../lib/store/table.ts';
import { queryOnlyTable } from '../support/query-only-table.ts';

const at = (time: string) => Date.parse(`2026-03-01T${time}Z`);

describe('bucketRolledUpBy (which slot of a cell writes a rollup)', () => {
  it('is the first slot of each bucket, rolling up the bucket before', () => {
    expect(bucketRolledUpBy(at('12:00:30.000'), 60)).toBe(at('11:55:00.000'));
    expect(bucketRolledUpBy(at('12:01:30.000'), 60)).toBeUndefined();
    expect(bucketRolledUpBy(at('12:04:30.000'), 60)).toBeUndefined();
    // Slots that do not divide the bucket: 11:59:00, 12:00:30 (first of 12:00), 12:02:00.
    expect(bucketRolledUpBy(at('12:00:30.000'), 90)).toBe(at('11:55:00.000'));
    expect(bucketRolledUpBy(at('12:02:00.000'), 90)).toBeUndefined();
    // A slot on the boundary opens its bucket.
    expect(bucketRolledUpBy(at('12:05:00.000'), 1)).toBe(at('12:00:00.000'));
    expect(bucketRolledUpBy(at('12:05:01.000'), 1)).toBeUndefined();
  });

  it('is never, for cells of a bucket or more (their slots are as few as rollups)', () => {
    expect(bucketRolledUpBy(at('12:00:30.000'), 300)).toBeUndefined();
    expect(bucketRolledUpBy(at('12:00:30.000'), 3600)).toBeUndefined();
  });
});

describe('rollUpMembers', () => {
  it("sums each member's entries apart and keeps a sparse histogram that reads back whole", () => {
    const slots = [
      {
        results: [
          { c: 'chk_a', ok: true, l: 40 },
          { c: 'chk_b', ok: false, l: 5000 },
        ],
      },
      { results: [{ c: 'chk_a', ok: false, l: 200 }] },
    ];
    const members = rollUpMembers(slots);
    const a = members.get('chk_a');
    if (!a) throw new Error('chk_a has results');
    const stored = storedMemberRollup(a);
    expect(stored).toEqual({
      total: 2,
      failures: 1,
      latency_sum: 240,
      latency_max: 200,
      histogram: { [histogramIndex(40)]: 1, [histogramIndex(200)]: 1 },
    });
    expect(memberRollupOf(stored)).toEqual(a);
    expect(storedMemberRollup(members.get('chk_b') ?? a)).toMatchObject({
      total: 1,
      failures: 1,
      latency_max: 5000,
    });
  });
});

describe('readSparkline of a cell member (unaligned widths)', () => {
  /** A table whose cell partition answers full pages of slots and says more follow; nothing else. */
  function endlessSlots(queries: QueryInput[]): Table {
    let n = 0;
    return queryOnlyTable(queries, (input) => {
      if (!input.pk.startsWith('CELLRES#')) return { items: [] };
      const items: Item[] = Array.from({ length: input.limit ?? 1000 }, () => {
        n += 1;
        return {
          pk: input.pk,
          sk: `RES#2026-03-01T11:30:00.${String(n).padStart(6, '0')}Z`,
          entity: 'cell_results',
          cell_id: 'cel_x',
          tenant_id: 'tnt_x',
          slot: '2026-03-01T11:30:00.000Z',
          results: [{ c: 'chk_x', ok: true, s: 0, l: 5, o: 0 }],
        };
      });
      return { items, cursor: `page-${queries.length}` };
    });
  }

  it(`stops after ${RAW_SPARKLINE_MAX_CELL_SLOTS} slots and answers a VALIDATION_ERROR about buckets`, async () => {
    const queries: QueryInput[] = [];
    const read = readSparkline(
      endlessSlots(queries),
      { id: 'chk_x', cell: { cell_id: 'cel_x' }, interval_seconds: 1 },
      { hours: 1, buckets: 7, nowMs: at('12:02:00.000') },
    );
    await expect(read).rejects.toBeInstanceOf(ValidationError);
    await expect(read).rejects.toMatchObject({ details: [{ path: 'buckets' }] });
    const cellReads = queries.filter((q) => q.pk === 'CELLRES#cel_x');
    // One slot past the bound shows there are more; no more is read.
    expect(cellReads.reduce((sum, q) => sum + (q.limit ?? 0), 0)).toBe(RAW_SPARKLINE_MAX_CELL_SLOTS + 1);
    expect(cellReads[0]?.sk).toEqual({
      op: 'between',
      low: 'RES#2026-03-01T11:05:00.000Z',
      high: 'RES#2026-03-01T12:04:59.999Z',
    });
  });
});
