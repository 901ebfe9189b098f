import type { TransitionRecord } from '../../checks/results.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import { alsoFailingJobId } from '../items/job-ids.ts';
import type { NotifyJob } from '../jobs.ts';

/**
 * The `also_failing` job of a check transition (DECISIONS.md "Alert truth (wave 5)" Cause): what
 * the change feed's notify consumer enqueues, apart from its handler (also-failing-alert.ts) so the
 * stream function loads no channel sender.
 */

/** How bad a state is: a check gets worse when this grows. */
const SEVERITY: Record<string, number> = { unknown: 0, up: 0, degraded: 1, down: 2 };

/**
 * The job of a check transition that may be "also failing" (into failing, or from degraded to
 * down: its channels may have heard nothing of the entity yet), else undefined.
 */
export function alsoFailingJob(t: TransitionRecord): JobInput<NotifyJob> | undefined {
  if (t.kind !== 'check' || (SEVERITY[t.to_state] ?? 0) <= (SEVERITY[t.from_state] ?? 0)) return undefined;
  const event: StateChangeEvent = {
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    check_id: t.check_id,
    tenant_id: t.tenant_id,
    from_state: 'down',
    to_state: 'down',
    transition_id: t.id,
    timestamp: t.created_at,
  };
  return { id: alsoFailingJobId(t.id), body: { kind: 'also_failing', event } };
}
