import { actionsFeature } from '../actions/feature.ts';
import { catalogFeature } from '../catalog/feature.ts';
import { handoverFeature } from '../handover/feature.ts';
import { incidentsFeature } from '../incidents/feature.ts';
import { notifyFeature } from '../notify/jobs.ts';
import { mountOnly, type QueueJob, queueSchema, withHost, withMount } from '../platform/feature.ts';
import { statusPagesFeature } from '../status-pages/feature.ts';
import { checksFeature, pushFeature } from './core-faces.ts';

/**
 * THE feature list: each feature once, as the runtimes' roots iterate it instead of naming the
 * features. An entry is the feature's lean face (lib/<feature>/feature.ts: its jobs, its part of
 * the change feed, its purge steps) with its mount, or its name and its mount when it brings only
 * routes, configuration kinds and MCP tools. A mount is heavy (handlers), so it is reached by a
 * lazy `import()` that only the API composition calls (lib/features/feature-routes.ts awaits
 * them all at its start): every function may load the list, and the lean ones leave the mount
 * modules (`*-routes.ts`) out of their bundles (infra/node-function.ts). The mounts are in this
 * order, which is the route table's and the OpenAPI document's; the faces' jobs, feeds and purge
 * steps run in it too. Adding a feature is its folder and a line here. A mount is in the feature's
 * route face (lib/<feature>/feature-routes.ts); the few that cannot be are in ./core-routes.ts and
 * ./bound-routes.ts (each says why).
 */
export const FEATURES = [
  mountOnly('health', () => import('./core-routes.ts').then((m) => m.healthMount)),
  mountOnly('people', () => import('../people/feature-routes.ts').then((m) => m.peopleMount)),
  withMount(catalogFeature, () => import('./core-routes.ts').then((m) => m.catalogMount)),
  withMount(checksFeature, () => import('./core-routes.ts').then((m) => m.checksMount)),
  mountOnly('status', () => import('../status/feature-routes.ts').then((m) => m.statusMount)),
  withMount(pushFeature, () => import('./bound-routes.ts').then((m) => m.pushMount)),
  withMount(notifyFeature, () => import('./bound-routes.ts').then((m) => m.notificationsMount)),
  mountOnly('maintenance', () => import('../maintenance/feature-routes.ts').then((m) => m.maintenanceMount)),
  withMount(actionsFeature, () => import('./bound-routes.ts').then((m) => m.actionsMount)),
  withMount(incidentsFeature, () => import('../incidents/feature-routes.ts').then((m) => m.incidentsMount)),
  withHost(
    withMount(statusPagesFeature, () =>
      import('../status-pages/feature-routes.ts').then((m) => m.statusPagesMount),
    ),
    () => import('../status-pages/job-host.ts').then((m) => m.statusPagesJobHost),
  ),
  withHost(handoverFeature, () => import('../handover/job-host.ts').then((m) => m.handoverJobHost)),
  mountOnly('uptime', () => import('../uptime/feature-routes.ts').then((m) => m.uptimeMount)),
  mountOnly('reports', () => import('../reports/feature-routes.ts').then((m) => m.reportsMount)),
  mountOnly('oncall', () => import('../oncall/feature-routes.ts').then((m) => m.onCallMount)),
  mountOnly('contacts', () => import('../contacts/feature-routes.ts').then((m) => m.contactsMount)),
  mountOnly('teams', () => import('../teams/feature-routes.ts').then((m) => m.teamsMount)),
  mountOnly('integrations', () =>
    import('../integrations/feature-routes.ts').then((m) => m.integrationsMount),
  ),
  mountOnly('ack-links', () => import('../ack-links/feature-routes.ts').then((m) => m.ackLinksMount)),
  mountOnly('escalation', () => import('../escalation/feature-routes.ts').then((m) => m.escalationMount)),
  mountOnly('locations', () => import('../locations/feature-routes.ts').then((m) => m.locationsMount)),
  mountOnly('search', () => import('../search/feature-routes.ts').then((m) => m.searchMount)),
  mountOnly('skills', () => import('../skills/feature-routes.ts').then((m) => m.skillsMount)),
  mountOnly('importers', () => import('../importers/feature-routes.ts').then((m) => m.importersMount)),
  mountOnly('config-docs', () => import('./bound-routes.ts').then((m) => m.configDocsMount)),
  mountOnly('mcp', () => import('./core-routes.ts').then((m) => m.mcpMount)),
] as const;

/** A job of the notify queue: every feature's that puts jobs there. */
export type NotifyQueueJob = QueueJob<typeof FEATURES, 'notify'>;

/** The notify queue's bodies, parsed as each adapter reads them back (lib/local, lib/cloud/queues/notify-queue.ts). */
export const notifyQueueJobSchema = queueSchema<NotifyQueueJob>(FEATURES, 'notify');

/** The status pages showing an entity, which notify's alerts name (its StatusPagesShowing port), over a table. */
export const statusPagesShowing = statusPagesFeature.lends.statusPagesShowing;
