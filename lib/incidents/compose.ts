import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import type { InMaintenance } from './incident-consumer.ts';
import { tenantRetentionDays } from './incident-retention.ts';
import { createIncidentService, type IncidentServiceDeps } from './incident-service.ts';
import { incidentRoutes } from './routes.ts';
import type { TimelineSources } from './timeline.ts';

/**
 * The incidents feature as the app composes it: the service (routes and MCP tools read and change
 * incidents through it) and its routes. What a timeline shows of other features comes from them:
 * lib/notify contributes the alerts and the acknowledgement hook, lib/actions the action runs
 * (both build on lib/incidents, never the reverse, so the app hands them in).
 */
export function composeIncidents(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  cursors: CursorSeal;
  sources: TimelineSources;
  inMaintenance?: InMaintenance | undefined;
  /** Told of each acknowledgement (lib/notify queues the job that tells the providers tracking incidents). */
  onAcknowledged?: IncidentServiceDeps['onAcknowledged'];
  /** Told of each resolution by hand (lib/escalation tells the people the incident's climb paged). */
  onResolved?: IncidentServiceDeps['onResolved'];
}) {
  const service = createIncidentService({ ...deps, retentionDays: tenantRetentionDays(deps.table) });
  return { service, routes: incidentRoutes({ incidents: service }) };
}
