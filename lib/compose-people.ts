import { createAuthenticator } from './auth/authenticate.ts';
import { createKeyService } from './auth/key-service.ts';
import { createKeyStore } from './auth/key-store.ts';
import { createRateLimitGuard } from './auth/rate-limit.ts';
import { authRoutes } from './auth/routes.ts';
import { teamRoutes } from './auth/team-routes.ts';
import { createTeamService } from './auth/team-service.ts';
import { createTeamStore } from './auth/team-store.ts';
import type { TenantStore } from './auth/tenant-store.ts';
import { getUser } from './auth/user-items.ts';
import { createCsrfCheck } from './http/csrf.ts';
import { hostPolicyOf } from './http/origin-policy.ts';
import type { Route, WriteSink } from './http/types.ts';
import type { EmailTransport } from './notify/email-transport.ts';
import { composeFactor } from './people/compose-factor.ts';
import type { PasswordPort } from './people/ports.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { Logger } from './platform/logger.ts';
import { createMemoryRateLimiter, type RateLimiter } from './platform/rate-limiter.ts';
import type { Table } from './store/table.ts';

// TEMPORARY until the sign-in's lib/people/password.ts and password-policy.ts are merged: then
// `{ hash: hashPassword, policy: checkPasswordPolicy }`.
const passwordsPending: PasswordPort = {
  hash: () => Promise.reject(new Error('password hashing is not composed yet')),
  policy: () => undefined,
};

export interface PeopleDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Config;
  tenants: TenantStore;
  rateLimiter?: RateLimiter | undefined;
  /** How password reset links are e-mailed: SMTP locally, SES in the cloud (lib/app.ts `email`). */
  email?: EmailTransport | undefined;
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
  const limiter = deps.rateLimiter ?? createMemoryRateLimiter({ clock: deps.clock });
  const rateLimit = createRateLimitGuard({
    limiter,
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
    ...composeFactor({
      ...deps,
      limits: rateLimit,
      limiter,
      tenant: (id) => deps.tenants.getTenant(id),
      userEmail: async (tenantId, userId) => (await getUser(deps.table, tenantId, userId))?.email,
      passwords: passwordsPending,
      mail: { transport: deps.email, from: deps.config.emailFrom, publicUrl: deps.config.publicUrl },
    }).routes,
  ];
  return { keys, keyService, authenticate, rateLimit, verifyCsrf, audit, routes };
}
