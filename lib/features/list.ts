import { actionsFeature } from '../actions/feature.ts';
import { catalogFeature } from '../catalog/feature.ts';
import { handoverFeature } from '../handover/feature.ts';
import { incidentsFeature } from '../incidents/feature.ts';
import { notifyFeature } from '../notify/jobs.ts';
import { type QueueJob, queueSchema } from '../platform/feature.ts';
import { statusPagesFeature } from '../status-pages/feature.ts';
import { checksFeature, pushFeature } from './core-faces.ts';

/**
 * THE feature list: each feature's face (lib/<feature>/feature.ts), which the runtimes' roots
 * iterate instead of naming the features. Adding a feature is its folder and a line here. Lean:
 * every function may load it (no handlers, routes or senders behind a face).
 */
export const FEATURES = [
  notifyFeature,
  statusPagesFeature,
  handoverFeature,
  catalogFeature,
  checksFeature,
  pushFeature,
  incidentsFeature,
  actionsFeature,
] as const;

/** A job of the notify queue: every feature's that puts jobs there. */
export type NotifyQueueJob = QueueJob<typeof FEATURES, 'notify'>;

/** The notify queue's bodies, parsed as each adapter reads them back (lib/local, lib/cloud/queues/notify-queue.ts). */
export const notifyQueueJobSchema = queueSchema<NotifyQueueJob>(FEATURES, 'notify');

/** The status pages showing an entity, which notify's alerts name (its StatusPagesShowing port), over a table. */
export const statusPagesShowing = statusPagesFeature.lends.statusPagesShowing;
