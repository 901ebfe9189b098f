import { changeOrder } from '../../domain/states.ts';
import type { DigestEntry } from '../items/group-items.ts';
import { readTold } from '../items/told-items.ts';
import type { NotifyDeps } from './notify-deps.ts';

/**
 * The entries the channel has not heard newer news of: an entry is left out when the channel's last
 * word about its entity (told-items.ts) came from a newer change sent outside this batch (a
 * recovery matching no grouping route goes alone while its down waits here), so the digest never
 * ends on a stale state (DECISIONS.md "Alert truth (wave 5)").
 */
export async function stillTrue(
  deps: Pick<NotifyDeps, 'table'>,
  job: { tenant_id: string; channel_id: string },
  entries: DigestEntry[],
): Promise<DigestEntry[]> {
  const inBatch = new Set(entries.map((e) => e.delivery_id));
  const entities = [...new Set(entries.map((e) => e.event.entity_id))];
  const words = new Map(
    await Promise.all(
      entities.map(
        async (entityId) =>
          [
            entityId,
            await readTold(deps.table, {
              tenant_id: job.tenant_id,
              entity_id: entityId,
              channel_id: job.channel_id,
            }),
          ] as const,
      ),
    ),
  );
  const current = entries.filter((e) => {
    const word = words.get(e.event.entity_id);
    return !word || inBatch.has(word.delivery_id) || word.order <= changeOrder(e.event);
  });
  // Two events of one entity in a row that name the same state (a change between them was sent
  // alone) say it once.
  const last = new Map<string, string>();
  return current.filter((e) => {
    const same = last.get(e.event.entity_id) === e.event.to_state;
    last.set(e.event.entity_id, e.event.to_state);
    return !same;
  });
}
