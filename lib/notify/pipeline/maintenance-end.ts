import { readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import type { ActiveMaintenance } from '../../maintenance/evaluate.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import { afterMaintenanceJobId, maintenanceEndJobId } from '../items/job-ids.ts';
import type { NotifyJob } from '../jobs.ts';
import { delayedJob, waitedAnotherHop } from './due-jobs.ts';
import { enqueueAll, type NotifyDeps } from './notify-deps.ts';
import { isDownState } from './upstream.ts';

/**
 * The end of a maintenance window (DECISIONS.md "Operations features (wave 3)"): an alert for a
 * change to down skipped during a window gets one look when the window ends. No timer per window
 * exists: the skip itself leaves a delayed `maintenance_end` job (the queue's delay, in hops of at
 * most 15 minutes as repeats wait), and when it is due and the entity is still down with the same
 * transition, the event is evaluated again in full, as for a fresh down, with its own delivery ids
 * (a window still covering it then skips it again and leaves the next look).
 */

type MaintenanceEndJob = Extract<NotifyJob, { kind: 'maintenance_end' }>;

/** The look at `event` (skipped for `window`) when the window's current run ends. */
export function maintenanceEndJob(
  event: StateChangeEvent,
  window: ActiveMaintenance,
  nowMs: number,
): JobInput<NotifyJob> {
  const body: MaintenanceEndJob = {
    kind: 'maintenance_end',
    event,
    window_id: window.id,
    due_ms: window.endsMs,
  };
  return delayedJob(body, nowMs, maintenanceEndJobId(event.transition_id, window.id, window.endsMs));
}

/** Handles one `maintenance_end` job; throws to have it retried. */
export async function handleMaintenanceEnd(deps: NotifyDeps, job: MaintenanceEndJob): Promise<void> {
  const nowMs = deps.clock.now();
  const { event } = job;
  const baseId = maintenanceEndJobId(event.transition_id, job.window_id, job.due_ms);
  if (await waitedAnotherHop(deps, job, baseId, nowMs)) return;
  const entity = await readEntityById(deps.table, event.tenant_id, event.entity_id);
  if (!entity || !isDownState(entity.state) || entity.last_transition_id !== event.transition_id) return;
  await enqueueAll(deps, [
    {
      id: afterMaintenanceJobId(event.transition_id, job.window_id, job.due_ms),
      body: {
        kind: 'event',
        event,
        after_maintenance: { window_id: job.window_id, ends_ms: job.due_ms },
      },
    },
  ]);
}
