import type { RateLimitGuard } from '../auth/limits.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { EgressSettings } from '../egress/egress.ts';
import type { HostPolicy } from '../http/origin-policy.ts';
import type { Clock } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { createIngestService, type EntityLookup, type OutsideStateChange } from './ingest/ingest-service.ts';
import { acknowledgeOutsideAlerts } from './ingest/outside-state.ts';
import { createPayloadLog } from './ingest/payload-log.ts';
import { createSnsEgress } from './ingest/sns-egress.ts';
import { integrationRoutes } from './integration-routes.ts';
import type { IntegrationRecord } from './items/integration-items.ts';
import { getOutsideAlert } from './items/outside-alert-items.ts';
import { publicOutsideAlert } from './manage/integration-responses.ts';
import { createIntegrationService } from './manage/integration-service.ts';
import { createOutsideAlertService, type OutsideAlertQuery } from './manage/outside-alert-service.ts';
import { catalogOwnEntities } from './manage/own-entities.ts';

/** Who an outside check belongs to: the integration and the entity its alerts are on. */
interface OutsideOwner {
  tenantId: string;
  integrationId: string;
  integrationName: string;
  integrationCreatedMs: number;
  entityId: string;
}

/** What the feature needs of the checks engine (lib/checks/services/outside-checks.ts). */
export interface OutsideCheckPort {
  record(
    owner: OutsideOwner,
    reading: Omit<OutsideStateChange, 'integration' | 'entityId'>,
  ): Promise<'recorded' | 'stale' | 'gone'>;
  remove(owner: OutsideOwner): Promise<void>;
}

/**
 * Outside alerts (issue 77): integrations, their senders' ingest and the alerts' reads, over one
 * table. What the feature needs of others comes in as ports: the catalog (own entities, lookups by
 * slug), the limits, the hosts ingest URLs are shown under, the egress for SNS, and where each
 * entity's outside state goes.
 */
export function composeIntegrations(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  cursors: CursorSeal;
  hosts: HostPolicy;
  limits: Pick<RateLimitGuard, 'attempt' | 'admitIngest'>;
  tenants: Pick<TenantStore, 'getTenant'>;
  /** The catalog's services: integrations' own entities are made and removed through them. */
  catalog: Parameters<typeof catalogOwnEntities>[0];
  entities: EntityLookup;
  egressAllow: readonly string[];
  egress?: EgressSettings | undefined;
  /** The outside checks (lib/checks), one per (entity, integration): their results and their deletes. */
  outsideChecks: OutsideCheckPort;
  /** Acknowledges an entity's open incident, if any, as `by` (lib/incidents): a sender's acknowledge. */
  acknowledgeIncident(tenantId: string, entityId: string, by: string): Promise<void>;
}) {
  const owner = (integration: IntegrationRecord, entityId: string) => ({
    tenantId: integration.tenant_id,
    integrationId: integration.id,
    integrationName: integration.name,
    integrationCreatedMs: Date.parse(integration.created_at),
    entityId,
  });
  const integrations = createIntegrationService({
    ...deps,
    catalog: catalogOwnEntities(deps.catalog),
    removeOutsideCheck: (integration, entityId) => deps.outsideChecks.remove(owner(integration, entityId)),
  });
  const sns = createSnsEgress(deps);
  const ingest = createIngestService({
    ...deps,
    fetchCertificate: sns.fetchCertificate,
    confirmSubscription: sns.confirmSubscription,
    topicConfirmed: integrations.topicConfirmed,
    stateChanged: ({ integration, entityId, ...reading }) =>
      deps.outsideChecks.record(owner(integration, entityId), reading),
    acknowledgeIncident: (integration, entityId) =>
      deps.acknowledgeIncident(integration.tenant_id, entityId, integration.id),
  });
  const outsideAlerts = createOutsideAlertService(deps);
  const payloads = createPayloadLog(deps);
  return {
    routes: integrationRoutes({ ...deps, integrations, ingest, outsideAlerts, payloads }),
    integrations,
    ingest,
    /** Outside alerts as MCP reads and acts on them (incident-ops): a page of them; one acknowledged or resolved. */
    outsideAlerts: {
      async list(tenantId: string, query: OutsideAlertQuery) {
        const page = await outsideAlerts.list(tenantId, query);
        return { alerts: page.alerts.map(publicOutsideAlert), nextCursor: page.nextCursor };
      },
      /** 404 unless the tenant has the integration and it holds an alert of that dedup key. */
      async require(tenantId: string, integrationId: string, dedupKey: string) {
        const integration = await integrations.get(tenantId, integrationId);
        if (!(await getOutsideAlert(deps.table, integration.id, dedupKey)))
          throw new NotFoundError('outside alert');
      },
      async act(
        tenantId: string,
        integrationId: string,
        dedupKey: string,
        action: 'acknowledge' | 'resolve',
      ) {
        const integration = await integrations.get(tenantId, integrationId);
        const alert = await ingest.actInVigil(integration, dedupKey, action);
        if (!alert) throw new NotFoundError('outside alert');
        return { integration, alert: publicOutsideAlert(alert) };
      },
    },
    /** An incident acknowledged in Vigil: recorded on its entity's triggered outside alerts. */
    incidentAcknowledged: (incident: { tenant_id: string; entity_id: string }) =>
      acknowledgeOutsideAlerts(deps, incident.tenant_id, incident.entity_id),
  };
}
