import { stateChangeEventOf } from '../checks/results.ts';
import { type MaintenanceLookup, maintenanceLookup } from '../maintenance/evaluate.ts';
import type { Clock } from '../platform/clock.ts';
import type { JobInput, JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import type { Table } from '../store/table.ts';
import { triggerIndexOf } from './items/trigger-index.ts';
import { stateChangeJobId } from './job-ids.ts';
import type { ActionJob } from './jobs.ts';

/**
 * The state_change trigger's first step: every new entity transition in the change feed becomes a
 * `state_change` job on the action queue, keyed by the transition, so a redelivered change
 * enqueues the same job (and the worker's deterministic execution ids dedupe what follows). A
 * transition of an entity a maintenance window covers fires nothing (DECISIONS.md "Operations
 * features (wave 3)"); no execution records a trigger that did not fire, so it is logged. A
 * transition no state_change action of its tenant could match (./items/trigger-index.ts)
 * enqueues nothing.
 */

/** A change-feed consumer that enqueues a `state_change` job per new entity transition; enqueue failures throw. */
export function createActionTriggerConsumer(deps: {
  table: Table;
  clock: Clock;
  queue: JobQueue<ActionJob>;
  logger: Logger;
}): ChangeConsumer {
  const index = triggerIndexOf(deps.table);
  return async (changes) => {
    const jobs: JobInput<ActionJob>[] = [];
    // One read of a tenant's windows per batch.
    const lookups = new Map<string, Promise<MaintenanceLookup>>();
    for (const change of changes) {
      const event = stateChangeEventOf(change);
      if (!event || !(await index.mayFire(event, deps.clock.now()))) continue;
      let lookup = lookups.get(event.tenant_id);
      if (!lookup) {
        lookup = maintenanceLookup(deps.table, deps.clock, event.tenant_id);
        lookups.set(event.tenant_id, lookup);
      }
      const maintenance = await (await lookup)({ id: event.entity_id });
      if (maintenance) {
        deps.logger.info('state_change actions not fired: maintenance', {
          transition_id: event.transition_id,
          entity_id: event.entity_id,
          maintenance_id: maintenance.id,
        });
        continue;
      }
      jobs.push({ id: stateChangeJobId(event.transition_id), body: { kind: 'state_change', event } });
    }
    if (jobs.length === 0) return;
    const { failed } = await deps.queue.enqueue(jobs);
    if (failed.length > 0) {
      deps.logger.warn('action triggers not enqueued; the feed redelivers them', { jobs: failed.length });
      throw new Error(`${failed.length} action trigger job(s) could not be enqueued`);
    }
  };
}
