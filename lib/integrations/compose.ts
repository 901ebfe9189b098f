import type { RateLimitGuard } from '../auth/limits.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { EgressSettings } from '../egress/egress.ts';
import type { HostPolicy } from '../http/origin-policy.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { createIngestService, type EntityLookup, type OutsideStateChange } from './ingest/ingest-service.ts';
import { createPayloadLog } from './ingest/payload-log.ts';
import { createSnsEgress } from './ingest/sns-egress.ts';
import { integrationRoutes } from './integration-routes.ts';
import { createIntegrationService, type IntegrationCatalog } from './manage/integration-service.ts';
import { createOutsideAlertService } from './manage/outside-alert-service.ts';

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
  catalog: IntegrationCatalog;
  entities: EntityLookup;
  egressAllow: readonly string[];
  egress?: EgressSettings | undefined;
  stateChanged(change: OutsideStateChange): Promise<void>;
}) {
  const integrations = createIntegrationService(deps);
  const sns = createSnsEgress(deps);
  const ingest = createIngestService({
    ...deps,
    fetchCertificate: sns.fetchCertificate,
    confirmSubscription: sns.confirmSubscription,
    topicConfirmed: integrations.topicConfirmed,
  });
  const outsideAlerts = createOutsideAlertService(deps);
  const payloads = createPayloadLog(deps);
  return {
    routes: integrationRoutes({ ...deps, integrations, ingest, outsideAlerts, payloads }),
    integrations,
    ingest,
  };
}
