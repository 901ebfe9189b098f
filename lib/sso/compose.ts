import type { TenantStore } from '../auth/tenants.ts';
import type { EgressSettings } from '../egress/egress.ts';
import type { HostPolicy } from '../http/origin-policy.ts';
import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { secureRequestOf } from './login-cookie.ts';
import { createOidcClients } from './oidc-client.ts';
import { ssoRoutes } from './routes.ts';
import { getSsoSettings } from './sso-items.ts';
import { createSsoSettingsService, passwordAllowed } from './sso-settings.ts';
import { createSsoSignIn, type StartSession } from './sso-sign-in.ts';

export type { StartSession };

/** SSO with OIDC (docs/auth.md "SSO with OIDC"): its settings, sign-in routes, and the password login's rule. */
export function composeSso(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Config;
  tenants: Pick<TenantStore, 'getTenant'>;
  hosts: HostPolicy;
  egress?: EgressSettings | undefined;
  startSession: StartSession;
}): {
  routes: Route[];
  passwordAllowed: (tenantId: string) => Promise<boolean>;
  configured: (tenantId: string) => Promise<boolean>;
} {
  const guard = { allowPrivate: deps.config.allowPrivateTargets, allow: deps.config.egressAllow };
  const clients = createOidcClients({ egress: { ...guard, egress: deps.egress }, clock: deps.clock });
  const settings = createSsoSettingsService({
    table: deps.table,
    clock: deps.clock,
    guard: { ...guard, resolve: deps.egress?.resolve },
  });
  const signIn = createSsoSignIn({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger,
    tenants: deps.tenants,
    clients,
    hosts: deps.hosts,
    secureRequest: secureRequestOf(deps.config.runtime, deps.config.publicUrl),
    startSession: deps.startSession,
  });
  return {
    routes: ssoRoutes({ settings, signIn }),
    passwordAllowed: (tenantId) => passwordAllowed(deps.table, tenantId),
    configured: async (tenantId) => (await getSsoSettings(deps.table, tenantId)) !== undefined,
  };
}
