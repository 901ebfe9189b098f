import { createAuthenticator } from './auth/authenticate.ts';
import { createKeyService } from './auth/key-service.ts';
import { createKeyStore } from './auth/key-store.ts';
import { createRateLimitGuard } from './auth/rate-limit.ts';
import { authRoutes } from './auth/routes.ts';
import { teamRoutes } from './auth/team-routes.ts';
import { createTeamService } from './auth/team-service.ts';
import { createTeamStore } from './auth/team-store.ts';
import type { TenantStore } from './auth/tenant-store.ts';
import { createCsrfCheck } from './http/csrf.ts';
import { hostPolicyOf } from './http/origin-policy.ts';
import type { Route, WriteSink } from './http/types.ts';
import { composeFactor } from './people/compose-factor.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { Logger } from './platform/logger.ts';
import { createMemoryRateLimiter, type RateLimiter } from './platform/rate-limiter.ts';
import type { Table } from './store/table.ts';

export interface PeopleDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Config;
  tenants: TenantStore;
  rateLimiter?: RateLimiter | undefined;
}

/**
 * Who may call, and how they prove it (docs/auth.md): API keys, the console's sessions, OAuth
 * tokens of MCP clients; the rate limits every caller passes; the team, sign-in, SSO, OAuth and
 * audit routes; and the audit log the router tells of every write.
 */
export function composePeople(deps: PeopleDeps) {
  const keys = createKeyStore(deps.table);
  const team = createTeamStore(deps.table);
  const keyService = createKeyService({ table: deps.table, keys, team, clock: deps.clock });
  const authenticate = createAuthenticator({
    keys,
    tenants: deps.tenants,
    clock: deps.clock,
    logger: deps.logger,
  });
  const rateLimit = createRateLimitGuard({
    limiter: deps.rateLimiter ?? createMemoryRateLimiter({ clock: deps.clock }),
    instanceLimiter: createMemoryRateLimiter({ clock: deps.clock }),
    config: deps.config,
    logger: deps.logger,
  });
  const verifyCsrf = createCsrfCheck(hostPolicyOf(deps.config));
  const audit: WriteSink | undefined = undefined;
  const routes: Route[] = [
    ...authRoutes({ keyService, tenants: deps.tenants }),
    ...teamRoutes({
      limits: rateLimit,
      teamService: createTeamService({
        table: deps.table,
        team,
        keys,
        tenants: deps.tenants,
        clock: deps.clock,
      }),
    }),
    ...composeFactor({ table: deps.table, clock: deps.clock, limits: rateLimit }).routes,
  ];
  return { keys, keyService, authenticate, rateLimit, verifyCsrf, audit, routes };
}
