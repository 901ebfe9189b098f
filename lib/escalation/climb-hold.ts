import type { StateChangeEvent } from '../domain/states.ts';
import { type ActiveMaintenance, maintenanceLookup } from '../maintenance/evaluate.ts';
import { getCheckPolicy } from '../notify/records.ts';
import type { PagingDeps } from './page-person.ts';

/**
 * What holds a climb's step back when it comes (issue 55; the same rule as a route's channel
 * escalation, lib/notify's escalation.ts): the check silenced holds it for good, since silence is
 * the operator's open-ended choice and the climb ends; a maintenance window covering the entity
 * holds it until the window's run ends, when the same step comes back and pages if the incident
 * is still open (a window quiets paging for that long, not for good).
 */
export type ClimbHold = { kind: 'silenced' } | { kind: 'maintenance'; window: ActiveMaintenance };

/** The hold on the climb of `event`'s incident now, if any. */
export async function climbHold(
  deps: Pick<PagingDeps, 'table' | 'clock'>,
  event: StateChangeEvent,
): Promise<ClimbHold | undefined> {
  const [policy, maintenanceOf] = await Promise.all([
    getCheckPolicy(deps.table, event.check_id),
    maintenanceLookup(deps.table, deps.clock, event.tenant_id),
  ]);
  if (policy?.tenant_id === event.tenant_id && policy.silenced) return { kind: 'silenced' };
  const window = await maintenanceOf({ id: event.entity_id });
  return window ? { kind: 'maintenance', window } : undefined;
}
