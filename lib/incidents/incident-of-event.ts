import type { StateChangeEvent } from '../domain/states.ts';
import type { Table } from '../store/table.ts';
import { opensIncident, opensIncidentIfNoneOpen } from './incident-consumer.ts';
import { incidentAtOrBefore, incidentIdOf } from './incident-items.ts';

/**
 * The incident an entity's state change belongs to, for channels whose provider tracks incidents
 * (PagerDuty's dedup_key, Opsgenie's alias): the one it opens (its id derives from the transition,
 * so no read, and a notify job that runs before the incident consumer still names it), else the
 * entity's newest incident opened at or before the change that was still unresolved then (a
 * repeat, an escalation, a change from degraded to down) or that this change resolved (a
 * recovery); else, for a change into down that found none unresolved, the one it opens (an entity
 * down from its first results, or degraded from them and then down). Undefined when the change
 * belongs to none (a degraded entity that was never up has none).
 */
export async function incidentIdOfEvent(table: Table, event: StateChangeEvent): Promise<string | undefined> {
  if (opensIncident(event)) return incidentIdOf(event.transition_id);
  const at = incidentIdOf(event.transition_id);
  const record = await incidentAtOrBefore(table, { tenant: event.tenant_id, entity: event.entity_id, at });
  const belongs =
    record !== undefined &&
    (record.resolved_at === null ||
      record.resolving_transition_id === event.transition_id ||
      record.resolved_at >= event.timestamp);
  if (belongs) return record.id;
  return opensIncidentIfNoneOpen(event) ? at : undefined;
}
