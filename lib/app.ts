import { composeChangeConsumers, consumerList } from './events/consumers.ts';
import { composeServices } from './features/compose-services.ts';
import type { CoreDeps } from './features/core-deps.ts';
import { BUILTIN_TOOLSETS, CONFIG_KINDS, featureRoutes, featureTools } from './features/feature-routes.ts';
import { openApiRoute } from './http/openapi.ts';
import { createRouter } from './http/router.ts';
import type { Route } from './http/types.ts';

export type { CoreDeps } from './features/core-deps.ts';

/**
 * The shared app, which each runtime's root builds over its own ports (lib/local/runtime.ts,
 * lib/cloud/http-composition.ts): the services the features share (lib/features/compose-services.ts),
 * the route table as the features mount it (lib/features/feature-routes.ts, then the OpenAPI
 * document of it), the router over it, and the change-feed consumers.
 */
export function createApp(deps: CoreDeps) {
  const services = composeServices(deps, {
    routes: () => routes,
    tools: () => tools,
    configKinds: CONFIG_KINDS,
    toolsets: BUILTIN_TOOLSETS,
  });
  const { people, notifications, actions } = services;
  const routes: Route[] = [...featureRoutes(services), openApiRoute(() => routes)];
  // The MCP tools the features' mounts declare, each bound over its feature's services.
  const tools = featureTools(services);
  /** Change-feed consumers, fed by the sqlite outbox pump locally and DynamoDB Streams in the cloud. */
  const changeConsumers = composeChangeConsumers({
    ...{ table: deps.table, clock: deps.clock, logger: deps.logger },
    ...{ notifyQueue: deps.notifyQueue, actionQueue: deps.actionQueue },
    statusStream: services.status.consumer,
    artifacts: deps.artifacts,
  });
  const router = createRouter({
    routes,
    authenticate: people.authenticate,
    authenticateLocation: services.locations.authenticateLocation,
    rateLimit: people.rateLimit,
    verifyCsrf: people.verifyCsrf,
    ...(people.audit ? { audit: people.audit } : {}),
    logger: deps.logger,
    // A status page's custom domain serves that page's routes alone (lib/status-pages).
    mapHost: services.statusPages.mapHost,
  });
  return {
    config: deps.config,
    routes,
    router,
    invoke: services.invoke,
    /** The configuration engine (plan, apply, export), for the MCP tools and the console. */
    configEngine: services.configDocs.engine,
    changeConsumers,
    consumers: consumerList(changeConsumers),
    tenants: services.tenants,
    keys: people.keys,
    keyService: people.keyService,
    entities: services.entities,
    checks: services.checks,
    checkService: services.checkService,
    recorder: services.recorder,
    jobRunner: services.jobRunner,
    /** The runtime's artifact store (browser checks' screenshots), if it keeps any. */
    artifacts: deps.artifacts,
    policies: notifications.policies,
    channels: notifications.channels,
    deliveries: notifications.deliveries,
    senders: notifications.senders,
    notifier: services.notifier,
    notifyQueue: deps.notifyQueue,
    actionQueue: deps.actionQueue,
    actions: actions.actions,
    executions: actions.executions,
    actionRunner: actions.actionRunner,
    actionWorker: actions.actionWorker,
    incidents: services.incidents.service,
    skills: services.skills.skills,
    tools: services.mcp.tools,
    reports: services.reports.sender,
  };
}

export type App = ReturnType<typeof createApp>;
