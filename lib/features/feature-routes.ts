import { ackLinksMount } from '../ack-links/feature-routes.ts';
import { actionsKind } from '../actions/config-kind.ts';
import type { AnyConfigKind } from '../config-doc/kind.ts';
import { documentKinds } from '../config-doc/registry.ts';
import { contactsMount } from '../contacts/feature-routes.ts';
import { escalationPoliciesKind } from '../escalation/config-kind.ts';
import type { Route } from '../http/types.ts';
import { importersMount } from '../importers/feature-routes.ts';
import { integrationsKind } from '../integrations/config-kind.ts';
import { maintenanceMount } from '../maintenance/feature-routes.ts';
import { onCallMount } from '../oncall/feature-routes.ts';
import { defineMount, type Mount, mountAll, mountedConfigKinds } from '../platform/feature.ts';
import { pushMount } from '../push/feature-routes.ts';
import { searchMount } from '../search/feature-routes.ts';
import { skillsKind } from '../skills/config-kind.ts';
import { statusPagesKind } from '../status-pages/config-kind.ts';
import { teamsKind } from '../teams/config-kind.ts';
import { uptimeMount } from '../uptime/feature-routes.ts';
import type { Services } from './compose-services.ts';
import { catalogMount, checksMount, healthMount, mcpMount } from './core-routes.ts';
import { channelsKind } from './kinds/channels.ts';
import { routesKind } from './kinds/routes.ts';

/**
 * THE mount list: each feature's routes, mounted over the shared services (./compose-services.ts)
 * in this order, which is the route table's and the OpenAPI document's. A feature whose routes use
 * only what the app shares declares them in its route face (lib/<feature>/feature-routes.ts,
 * `defineMount`); one whose compose.ts builds its routes with the services it shares is mounted by
 * its name in the services (`composed`); the folders whose faces are full have theirs in
 * ./core-routes.ts. Heavy (handlers): only the API composition loads it
 * (lib/app.ts; test/architecture/lean-functions.test.ts keeps it out of the lean functions).
 */

/** The services' names whose value carries its feature's routes. */
type Composed = {
  [K in keyof Services]-?: Services[K] extends { routes: readonly Route[] } ? K : never;
}[keyof Services];

type ServiceMount = Mount<Services, Route, AnyConfigKind>;

/**
 * A feature composed with the services (its compose.ts returns its routes): mounted by its name
 * there, with the configuration kinds it brings.
 */
const composed = (name: Composed, configKinds: readonly AnyConfigKind[] = []): ServiceMount => ({
  name,
  routes: (services) => (services[name] as { routes: readonly Route[] }).routes,
  configKinds,
});

/** Outside alerts' routes: the authenticated ones, then the integration URLs senders post to. */
const integrationsMount = defineMount({
  name: 'integrations',
  routes: ({ integrations: { routes } }: Pick<Services, 'integrations'>) => [
    ...routes.authed,
    ...routes.open,
  ],
  configKinds: [integrationsKind],
});

const MOUNTS: readonly ServiceMount[] = [
  healthMount,
  composed('people'),
  catalogMount,
  checksMount,
  composed('status'),
  pushMount,
  composed('notifications', [channelsKind, routesKind]),
  maintenanceMount,
  composed('actions', [actionsKind]),
  composed('incidents'),
  composed('statusPages', [statusPagesKind]),
  uptimeMount,
  composed('reports'),
  onCallMount,
  contactsMount,
  composed('teams', [teamsKind]),
  integrationsMount,
  ackLinksMount,
  composed('escalation', [escalationPoliciesKind]),
  composed('locations'),
  searchMount,
  composed('skills', [skillsKind]),
  importersMount,
  composed('configDocs'),
  mcpMount,
];

/** Every feature's routes over the shared services, in the list's order. */
export const featureRoutes = (services: Services): Route[] => mountAll(MOUNTS, services);

/** The configuration document's kinds, as the mounts declare them (the configuration engine's set). */
export const CONFIG_KINDS = documentKinds(mountedConfigKinds(MOUNTS));
