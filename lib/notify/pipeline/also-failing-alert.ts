import { type EntityState, readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import type { NotifyJob } from '../jobs.ts';
import { rejudgeJob } from './due-jobs.ts';
import { judgeChange } from './flow.ts';
import { enqueueAll, type NotifyDeps, newDelivery, storeAndDispatch } from './notify-deps.ts';
import { channelDecisions } from './stages.ts';
import { alertHeldBackOps } from './suppressed-alert-items.ts';

/**
 * "Also failing" (DECISIONS.md "Alert truth (wave 5)" Cause): a check that starts failing on an
 * entity already down moves no entity state, so it publishes no entity transition; its own check
 * transition becomes an `also_failing` job, and its channels (the check's own and attached ones,
 * routes matching the entity down) are told with `kind: "also_failing"` through the same steps as
 * any alert (silence, maintenance, flapping, the check's cooldown, an upstream hold) and the same
 * grouping and fold. The event names the entity's state (down → down) and the failing check; a
 * check that recovers while the entity stays down is no page (the next message lists what fails).
 */

type AlsoFailingJob = Extract<NotifyJob, { kind: 'also_failing' }>;

/**
 * Whether the entity was down before the check's change: down now, by a transition older than it
 * (the change that moved the entity down itself is the entity's own alert, not "also failing").
 */
const downBefore = (entity: EntityState | undefined, event: StateChangeEvent): boolean => {
  const last = entity?.last_transition_id;
  // Transition ids are time-ordered and the check's is made before its entity's in one result, so
  // an entity transition older than the check's change sorts before it.
  return entity?.state === 'down' && last !== undefined && last < event.transition_id;
};

/** Handles one `also_failing` job; throws to have it retried. */
export async function handleAlsoFailing(deps: NotifyDeps, job: AlsoFailingJob): Promise<void> {
  const { event } = job;
  const entity = await readEntityById(deps.table, event.tenant_id, event.entity_id);
  if (!downBefore(entity, event)) return;
  const { ctx, reached: channels, verdict } = await judgeChange(deps, event, { known: entity });
  // Held by a window or the cooldown: its channels hear the entity's state when the hold ends (rejudge.ts).
  const target = { tenant_id: event.tenant_id, entity_id: event.entity_id };
  const nowMs = deps.clock.now();
  const endsMs = verdict?.maintenance?.endsMs ?? (verdict?.step === 'cooldown' ? verdict.dueMs : undefined);
  if (verdict && endsMs !== undefined)
    await enqueueAll(deps, [rejudgeJob(target, endsMs, verdict.step, nowMs)]);
  // Held behind a down upstream: its recovery re-judges this entity (flow.ts releaseHeldBack).
  if (verdict?.upstreams)
    await deps.table.transact(
      alertHeldBackOps(
        event,
        verdict.upstreams.map((up) => up.id),
      ),
    );
  const base = { event, kind: 'also_failing' as const, seq: '0', timeMs: Date.parse(event.timestamp) };
  const records = channelDecisions(verdict, channels).map(({ channel, outcome, reason }) =>
    newDelivery(
      { ...base, channel, ...(outcome === 'send' ? {} : { skipped: reason ?? outcome }) },
      deps.clock.now(),
    ),
  );
  await storeAndDispatch(deps, records, { words: ctx.words, grouping: ctx.grouping });
}
