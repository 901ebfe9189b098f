import type { ActionJob } from '../actions/jobs.ts';
import { createActionTriggerConsumer } from '../actions/trigger-consumer.ts';
import { STATE_RULE_JOB_ENTITY } from '../catalog/blueprints.ts';
import type { ArtifactStore } from '../checks/probing.ts';
import { createStateRuleConsumer, TRANSITION_ENTITY } from '../checks/results.ts';
import { resolvedOnQueue } from '../escalation/resolution-hook.ts';
import { FEATURES, type NotifyQueueJob } from '../features/list.ts';
import { createIncidentConsumer, type InMaintenance } from '../incidents/incident-consumer.ts';
import { tenantRetentionDays } from '../incidents/incident-retention.ts';
import { type MaintenanceLookup, maintenanceLookup } from '../maintenance/evaluate.ts';
import { ACKNOWLEDGE_STREAM, createAcknowledgeConsumer, createNotifyConsumer } from '../notify/consumer.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import type { Clock } from '../platform/clock.ts';
import { enqueuerOf } from '../platform/feature.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import { createPurgeConsumer } from '../purge/purge-consumer.ts';
import { PURGE_JOB_ENTITY } from '../purge/purge-job-items.ts';
import { purgeStepsOf } from '../purge/purge-steps.ts';
import type { ChangeConsumer, StreamedEntity } from '../store/change-feed.ts';
import type { Table } from '../store/table.ts';

/*
 * The events feature's face for the compositions: every change-feed consumer, each contributed by
 * the feature that owns it, in one list both runtimes run (the local change pump, lib/local; the
 * stream function, lib/cloud/stream-composition.ts): the core consumers named here, then each
 * feature's of the feature list (lib/features/list.ts, a face's `feed`). It sits above the
 * features it lists: none of them imports lib/events.
 */

/** The features' parts of the change feed, in the list's order. */
const FEEDS = FEATURES.flatMap((feature) => ('feed' in feature ? [feature.feed] : []));

/**
 * Item types whose changes the consumers need. The sqlite outbox keeps only these and the CDK
 * stream event source filters on the same list, so high-volume items (results) never reach it.
 */
export const STREAM_ENTITIES: readonly StreamedEntity[] = [
  PURGE_JOB_ENTITY,
  TRANSITION_ENTITY,
  STATE_RULE_JOB_ENTITY,
  // An incident acknowledged: its channels are told (an incident's other writes are not fed).
  ACKNOWLEDGE_STREAM,
  // What the features' consumers read (a status page's writes that enqueue notices, a schedule's).
  ...FEEDS.flatMap((feed) => feed.entities),
];

/** The core change-feed consumers by name, which run first (consumerList says in which order). */
interface CoreConsumers {
  purge: ChangeConsumer;
  notify: ChangeConsumer;
  /** Queues the job that tells an acknowledged incident's channels (lib/notify). */
  acknowledgements: ChangeConsumer;
  actions: ChangeConsumer;
  /** Opens and resolves incidents from entity transitions. */
  incidents: ChangeConsumer;
  /** Applies a blueprint's new state rule to its entities in bounded rounds. */
  stateRules: ChangeConsumer;
  /** Pushes transitions to this process's open status streams (push mode only). */
  statusStream?: ChangeConsumer;
}

/**
 * The change-feed consumers by name: what the app runs and what the stream function runs. The core
 * ones, then each feature's of the list (their faces' `feed`: a status page's drafts and
 * subscribers' notices, a schedule's handover chain) under its own name.
 */
export type ChangeConsumers = CoreConsumers & {
  readonly [featureConsumer: string]: ChangeConsumer | undefined;
};

const CORE_NAMES = new Set([
  'purge',
  'notify',
  'acknowledgements',
  'actions',
  'incidents',
  'stateRules',
  'statusStream',
]);

/** The features' consumers by name; a name the core or another feature has is refused. */
function featureConsumers(ports: {
  table: Table;
  clock: Clock;
  logger: Logger;
  notifyQueue: JobQueue<NotifyQueueJob>;
}): Record<string, ChangeConsumer> {
  const found: Record<string, ChangeConsumer> = {};
  for (const [name, consumer] of FEEDS.flatMap((feed) => Object.entries(feed.consumers(ports)))) {
    if (CORE_NAMES.has(name) || name in found) throw new Error(`a second change consumer named ${name}`);
    found[name] = consumer;
  }
  return found;
}

/**
 * Every change-feed consumer, fed by the sqlite outbox pump locally and by DynamoDB Streams in the
 * cloud (functions/stream.ts): one list for both, so a consumer cannot be left out of one of them.
 */
export function composeChangeConsumers(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  notifyQueue: JobQueue<NotifyQueueJob>;
  actionQueue: JobQueue<ActionJob>;
  statusStream?: ChangeConsumer | undefined;
  /** Whether an entity is in a maintenance window now (marks the incidents it opens); default never. */
  inMaintenance?: InMaintenance | undefined;
  /** The runtime's artifact store: a deleted check's artifacts are purged from it; absent: none kept. */
  artifacts?: ArtifactStore | undefined;
}): ChangeConsumers {
  const retentionDays = tenantRetentionDays(deps.table);
  const notifyQueue = enqueuerOf<NotifyQueueJob, NotifyJob>(deps.notifyQueue);
  return {
    purge: createPurgeConsumer({
      table: deps.table,
      clock: deps.clock,
      logger: deps.logger,
      // Each feature of the list purges its own items (its face's `purge`).
      steps: purgeStepsOf(FEATURES, { table: deps.table, clock: deps.clock, artifacts: deps.artifacts }),
    }),
    notify: createNotifyConsumer({ queue: notifyQueue, logger: deps.logger, table: deps.table }),
    acknowledgements: createAcknowledgeConsumer({ queue: notifyQueue, logger: deps.logger }),
    stateRules: createStateRuleConsumer({ table: deps.table, clock: deps.clock, logger: deps.logger }),
    actions: createActionTriggerConsumer({
      table: deps.table,
      clock: deps.clock,
      queue: deps.actionQueue,
      logger: deps.logger,
    }),
    incidents: createIncidentConsumer({
      table: deps.table,
      logger: deps.logger,
      retentionDays,
      // The people an incident's climb paged are told when its entity's recovery resolves it.
      onResolved: resolvedOnQueue(deps.table, deps.notifyQueue, deps.logger),
      // An incident opened while a window covers its entity is marked in_maintenance: each tenant's
      // windows are read once per batch (a burst of transitions reads them once).
      maintenanceForBatch: () => {
        if (deps.inMaintenance) return deps.inMaintenance;
        const lookups = new Map<string, Promise<MaintenanceLookup>>();
        return async (tenantId, entityId) => {
          let lookup = lookups.get(tenantId);
          if (!lookup) {
            lookup = maintenanceLookup(deps.table, deps.clock, tenantId);
            lookups.set(tenantId, lookup);
          }
          return (await (await lookup)({ id: entityId })) !== undefined;
        };
      },
    }),
    ...featureConsumers(deps),
    ...(deps.statusStream ? { statusStream: deps.statusStream } : {}),
  };
}

/**
 * The consumers in the order they run for each batch. The notify and action consumers only enqueue
 * jobs, and an alert's latency is the time to its job: they run before the incidents consumer,
 * whose reads and writes per transition would otherwise hold a burst's alerts back (nothing in the
 * notify flow waits for the incident: escalation derives its id from the transition, and the
 * timeline is read when asked).
 */
export function consumerList(c: ChangeConsumers): ChangeConsumer[] {
  return [
    c.purge,
    c.notify,
    c.acknowledgements,
    c.actions,
    c.incidents,
    c.stateRules,
    // After the incidents: a status page's draft of a root change is the incident its transition opened.
    ...Object.entries(c).flatMap(([name, consumer]) => (CORE_NAMES.has(name) || !consumer ? [] : [consumer])),
    ...(c.statusStream ? [c.statusStream] : []),
  ];
}

/**
 * The consumers the stream function hands a whole batch at once (functions/stream.ts): the two that
 * only enqueue jobs, so they need no per-entity concurrency. Per record, each batch of one record
 * cost a SendMessageBatch call per queue and its reads per record (issue 58); whole, a batch's
 * jobs share a few calls, and a check transition whose entity transition is in the same batch is
 * known as that entity's own alert, not "also failing" (as the local pump's batches always did).
 */
export function batchedConsumers(c: ChangeConsumers): ChangeConsumer[] {
  return [c.notify, c.actions];
}
