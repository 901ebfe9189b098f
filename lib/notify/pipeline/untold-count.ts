import type { EntityState } from '../../catalog/entities.ts';
import { chunks } from '../../platform/chunks.ts';
import type { Table } from '../../store/table.ts';
import { readToldOfEntityEventually } from '../items/told-items.ts';
import { untold } from './rejudge.ts';

/**
 * The board's `untold` (DECISIONS.md "Alert truth (wave 5)", Visible truth): how many of the
 * entities read have a channel whose last word about them (./told-items.ts) is not their
 * state. One eventually consistent query of the entity's told partition per entity that has
 * changed state (an entity still unknown, or with no transition, was never told anything), at most
 * AT_ONCE at a time; up entities are read too, since a recovery can be the word held back. A
 * channel never told anything (an alert held from the first failure) is not counted here: the
 * simulation (POST /v1/notify/simulate) names it.
 */

/** Told partitions read at once. */
const AT_ONCE = 25;

/** How many of `entities` have a channel whose last word is not their state. */
export async function countUntold(
  table: Table,
  tenantId: string,
  entities: readonly EntityState[],
): Promise<number> {
  const candidates = entities.filter((e) => e.state !== 'unknown' && e.last_transition_id);
  let count = 0;
  for (const part of chunks(candidates, AT_ONCE)) {
    const behind = await Promise.all(
      part.map(async (e) =>
        (await readToldOfEntityEventually(table, tenantId, e.id)).some((word) => untold(word, e.state)),
      ),
    );
    count += behind.filter(Boolean).length;
  }
  return count;
}
