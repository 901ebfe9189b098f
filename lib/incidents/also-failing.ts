import { readEntityById } from '../catalog/entities.ts';
import { checkNameOf } from '../check-types/check-name.ts';
import { getCheckDefinition } from '../checks/check-items.ts';
import type { TransitionRecord } from '../checks/results.ts';
import type { Table } from '../store/table.ts';
import { addAlsoFailing, readAlsoFailing } from './also-failing-items.ts';
import { incidentUnresolvedOp, readOpenIncidentRecord } from './incident-items.ts';

/**
 * "Also failing" (DECISIONS.md "Alert model (wave 4)"): a check that starts failing inside an
 * entity already down joins the entity's open incident instead of paging again. Its check
 * transition (kind `check`, on the change feed beside the entity's) is recorded on the incident;
 * the entity publishes no transition (its state stays down), so no alert is sent for it.
 */

const failing = (state: string) => state === 'down' || state === 'degraded';

/** Applies one check transition to the entity's open incident (idempotent). */
export async function applyCheckTransition(table: Table, t: TransitionRecord): Promise<boolean> {
  if (t.kind !== 'check' || !failing(t.to_state) || failing(t.from_state)) return false;
  // Most failing checks find no open incident (they open it): the entity is read only when there is one.
  const incident = await readOpenIncidentRecord(table, t.tenant_id, t.entity_id);
  // The check that opened the incident is its cause, not "also failing".
  if (!incident || incident.check_id === t.check_id || t.created_at < incident.opened_at) return false;
  const entity = await readEntityById(table, t.tenant_id, t.entity_id);
  if (entity?.state !== 'down') return false;
  const check = await getCheckDefinition(table, t.tenant_id, t.check_id);
  const record = {
    incident_id: incident.id,
    check_id: t.check_id,
    check_name: check ? checkNameOf(check) : t.check_id,
    at: t.created_at,
  };
  // Only while the incident is unresolved: its resolution gave the items it found their expiry.
  return addAlsoFailing(table, t.tenant_id, record, [incidentUnresolvedOp(t.tenant_id, incident.id)]);
}

/** The names of the checks also failing in the entity's open incident (the notifier names them). */
export async function alsoFailingOf(table: Table, tenantId: string, entityId: string): Promise<string[]> {
  const incident = await readOpenIncidentRecord(table, tenantId, entityId);
  if (!incident) return [];
  return (await readAlsoFailing(table, tenantId, incident.id)).map((r) => r.check_name);
}
