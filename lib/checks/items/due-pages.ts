import type { z } from 'zod';
import { checkStateSchema } from '../../check-types/check-record.ts';
import { transactIf } from '../../store/items.ts';
import type { Item, Table } from '../../store/table.ts';
import { dueEntriesPage, duePartitions, isTenantPartitionState, stateMovedOps } from './check-state-items.ts';

/** What a claim needs of a due check: its state item, as the due index (gsi2) returns it. */
const dueCheckSchema = checkStateSchema.pick({
  check_id: true,
  tenant_id: true,
  execution_mode: true,
  interval_seconds: true,
  last_result_at: true,
  next_run_at: true,
});
export type DueCheck = z.infer<typeof dueCheckSchema>;

/** A shard's partitions read at once when the shard's reading starts (it has DUE_SUB_KEYS + 1). */
const READS_IN_FLIGHT = 8;
/**
 * Entries read per query of one partition, at most: the merge holds up to this many of each of the
 * shard's 65 partitions (~6,500 state items), where larger pages would hold 65 times a page.
 */
const PARTITION_PAGE = 100;

/** One due-index partition being read: the entries read and not yet handed on, and where its reading stands. */
interface Lane {
  pk: string;
  items: Item[];
  cursor: string | undefined;
  done: boolean;
}

/** One page of a shard's due checks, and whether any may follow it. */
export interface DuePage {
  checks: DueCheck[];
  more: boolean;
}

/**
 * The checks of one due-index shard due before `before` (an ISO time), oldest due first, in pages
 * of up to `pageSize`: each of the shard's partitions (its sub-keys and the key of earlier
 * releases, duePartitions) is read in pages of its own, and their entries merged by sort key (the
 * due time, then the check id). A partition is read again when the merge has taken all it read, so
 * a page is a key range of each partition, as one partition's page was.
 */
export async function* dueCheckPages(
  table: Table,
  input: { shard: number; before: string; pageSize: number },
): AsyncGenerator<DuePage> {
  const limit = Math.min(PARTITION_PAGE, input.pageSize);
  const lanes: Lane[] = duePartitions(input.shard).map((pk) => ({
    pk,
    items: [],
    cursor: undefined,
    done: false,
  }));
  // Until it has entries or is read to its end (an empty page with a cursor is read on).
  const fill = async (lane: Lane) => {
    do {
      const page = await dueEntriesPage(table, {
        pk: lane.pk,
        before: input.before,
        limit,
        cursor: lane.cursor,
      });
      lane.items.push(...page.items);
      lane.cursor = page.cursor;
      lane.done = page.cursor === undefined;
    } while (lane.items.length === 0 && !lane.done);
  };
  for (let i = 0; i < lanes.length; i += READS_IN_FLIGHT) {
    await Promise.all(lanes.slice(i, i + READS_IN_FLIGHT).map(fill));
  }
  const sortKey = (item: Item | undefined) => String(item?.gsi2sk);
  for (;;) {
    const page: Item[] = [];
    while (page.length < input.pageSize) {
      let next: Lane | undefined;
      for (const lane of lanes) {
        if (lane.items.length > 0 && (!next || sortKey(lane.items[0]) < sortKey(next.items[0]))) next = lane;
      }
      if (!next) break;
      page.push(next.items.shift() as Item);
      if (next.items.length === 0 && !next.done) await fill(next);
    }
    if (page.length === 0) return;
    // An entry of a state an earlier release kept in its tenant's partition: moved with its entry
    // first (a move that loses a race leaves the claim to fail, and the next pass to take it).
    for (const item of page.filter(isTenantPartitionState)) {
      await transactIf(table, stateMovedOps(item, false));
    }
    const more = lanes.some((lane) => lane.items.length > 0);
    yield { checks: page.map((item) => dueCheckSchema.parse(item)), more };
    if (!more) return;
  }
}
