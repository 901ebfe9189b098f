import { readEntityById } from '../../catalog/entities.ts';
import { dependentsOf } from '../../catalog/relations.ts';
import { isRecovery, type StateChangeEvent } from '../../domain/states.ts';
import type { Table } from '../../store/table.ts';
import type { Holding, HoldingDependent, StatusPagesShowing } from '../items/ports.ts';
import { isDownState } from './upstream.ts';

/**
 * Inhibition, told from the root cause's side (issue 35 item 4, DECISIONS.md "Alert model (wave
 * 4)"): the alert of an entity others depend on names, at send time, its dependents (through
 * depends_on, transitively) that are down or degraded, held back behind it, and the status pages
 * showing it or them ("Orders DB is down; holding 4 dependents: …; status pages affected: …"),
 * read through the status pages' port (StatusPagesShowing).
 * Its recovery is the all-clear: the dependents up again, and those still down. An entity nothing
 * depends on has no `holding` (one index read to learn so).
 */

/** Dependents a payload lists; `dependents_total` counts the rest. */
const MAX_LISTED = 100;

/** What `event`'s entity holds back now (a down or degraded alert) or lets go (a recovery); undefined when nothing. */
export async function holdingOf(
  deps: { table: Table; statusPagesShowing: StatusPagesShowing },
  event: StateChangeEvent,
): Promise<Holding | undefined> {
  const { table } = deps;
  const recovery = isRecovery(event);
  if (!recovery && !isDownState(event.to_state)) return undefined;
  const ids = await dependentsOf(table, event.tenant_id, event.entity_id);
  if (ids.length === 0) return undefined;
  const states = await Promise.all(ids.map((id) => readEntityById(table, event.tenant_id, id)));
  const all: HoldingDependent[] = states.flatMap((s) =>
    s ? [{ entity_id: s.id, name: s.name, state: s.state }] : [],
  );
  const down = all.filter((d) => isDownState(d.state));
  const named = recovery ? all.filter((d) => d.state === 'up') : down;
  if (named.length === 0 && (!recovery || down.length === 0)) return undefined;
  const shown = new Set([event.entity_id, ...named.map((d) => d.entity_id), ...down.map((d) => d.entity_id)]);
  const pages = await deps.statusPagesShowing(event.tenant_id, shown);
  return {
    dependents: named.slice(0, MAX_LISTED),
    dependents_total: named.length,
    ...(recovery ? { still_down: down.slice(0, MAX_LISTED) } : {}),
    status_pages: pages.map((page) => ({ slug: page.slug, title: page.title })),
  };
}
