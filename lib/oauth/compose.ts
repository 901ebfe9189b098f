import type { RecordAuditEvent } from '../audit/event-audit.ts';
import type { RateLimitGuard } from '../auth/limits.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { EgressSettings } from '../egress/egress.ts';
import type { HostPolicy } from '../http/origin-policy.ts';
import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { createAccessTokenResolver } from './access-tokens.ts';
import { createClientMetadataFetcher } from './client-metadata.ts';
import { createClients } from './clients.ts';
import { createConsent } from './consent.ts';
import { consentRoutes } from './consent-routes.ts';
import { endpointRoutes } from './endpoint-routes.ts';
import { metadataRoutes } from './metadata-routes.ts';
import { createTokenService } from './token-service.ts';

export interface OauthDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  tenants: TenantStore;
  hosts: HostPolicy;
  limits: Pick<RateLimitGuard, 'attempt'>;
  /** VIGIL_EGRESS_ALLOW, and the egress settings client metadata documents are fetched with. */
  egressAllow: readonly string[];
  egress?: EgressSettings | undefined;
  /** The audit log's recorder: grants revoked on a replayed code or refresh token. */
  audit?: RecordAuditEvent | undefined;
}

/** OAuth 2.1 for remote MCP clients (docs/auth.md "OAuth for MCP clients"): its routes and the access-token resolver. */
export function composeOauth(deps: OauthDeps) {
  const { table, clock, logger } = deps;
  const clients = createClients({
    table,
    clock,
    fetchMetadata: createClientMetadataFetcher({
      clock,
      logger,
      egressAllow: deps.egressAllow,
      egress: deps.egress,
    }),
  });
  const tokens = createTokenService({ table, clock, logger, audit: deps.audit });
  const routes: Route[] = [
    ...metadataRoutes(deps.hosts),
    ...endpointRoutes({ table, clock, clients, tokens, hosts: deps.hosts, limits: deps.limits }),
    ...consentRoutes({ table, consent: createConsent({ table, clock }) }),
  ];
  return { routes, accessTokens: createAccessTokenResolver({ table, clock, logger, tenants: deps.tenants }) };
}
