import type { StateChangeEvent } from '../../domain/states.ts';
import { maintenanceLookup } from '../../maintenance/evaluate.ts';
import { eventRouting } from '../routing/route-channels.ts';
import { effectivePolicy, type NotifyDeps } from './notify-deps.ts';

/**
 * What a change is judged against, read side by side: its check's policy, the check's own
 * channels, the tenant's routes and its maintenance windows. `knownBlueprint` spares the routes a
 * read of the entity when the caller has it.
 */
export async function alertInputs(
  deps: Pick<NotifyDeps, 'table' | 'clock' | 'policies' | 'channels'>,
  event: StateChangeEvent,
  knownBlueprint?: string,
) {
  const [policy, own, routing, maintenanceOf] = await Promise.all([
    effectivePolicy(deps, event.tenant_id, event.check_id),
    deps.channels.listForCheck(event.check_id),
    eventRouting(deps.table, event, knownBlueprint),
    maintenanceLookup(deps.table, deps.clock, event.tenant_id),
  ]);
  return { policy, own, routing, maintenanceOf };
}
