import * as z from 'zod';
import { composeAckLinks, mintAckLinks } from './ack-links/compose.ts';
import { composeActions } from './actions/compose.ts';
import type { ActionJob } from './actions/jobs.ts';
import { DEFAULT_LIMITS } from './auth/records.ts';
import { createBlueprintStore } from './catalog/blueprints.ts';
import { catalogRoutes, catalogServices } from './catalog/compose.ts';
import { createEntityStore } from './catalog/entities.ts';
import { type ArtifactStore, createRunNow } from './checks/probing.ts';
import { artifactRoutes, checkRoutes } from './checks/routes.ts';
import {
  createCheckReadService,
  createCheckService,
  createDraftRun,
  createOutsideChecks,
  ruleChangeOps,
} from './checks/services.ts';
import { composeConfigDocs } from './config-doc/compose.ts';
import { composeContacts } from './contacts/compose.ts';
import type { EgressSettings } from './egress/egress.ts';
import { composeEscalation } from './escalation/compose.ts';
import { pagingFor } from './escalation/compose-paging.ts';
import { resolvedOnQueue } from './escalation/resolution-hook.ts';
import { composeChangeConsumers, consumerList } from './events/consumers.ts';
import { hostNotifyJobs } from './features/job-hosts.ts';
import type { NotifyQueueJob } from './features/list.ts';
import { defineRoute } from './http/define-route.ts';
import { openApiRoute } from './http/openapi.ts';
import { hostPolicyOf } from './http/origin-policy.ts';
import { createRouteInvoker } from './http/route-invoker.ts';
import { createRouter } from './http/router.ts';
import { ok, type Route } from './http/types.ts';
import { convertRoutes } from './importers/convert-route.ts';
import { composeIncidents } from './incidents/compose.ts';
import { composeIntegrations } from './integrations/compose.ts';
import { composeLocations } from './locations/compose.ts';
import { composeProbing, type ProbingDeps } from './locations/compose-probing.ts';
import { maintenanceLookup } from './maintenance/evaluate.ts';
import { createMaintenanceService } from './maintenance/maintenance-service.ts';
import { maintenanceRoutes } from './maintenance/routes.ts';
import { BUILTIN_TOOLSETS, starterSkillOps } from './mcp/builtin-tools.ts';
import { composeMcp } from './mcp/compose.ts';
import type { LegacyStreamSettings } from './mcp/legacy-sse.ts';
import { createMcpRelay } from './mcp/relay.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { composeNotifications } from './notify/compose.ts';
import type { EmailTransport } from './notify/email-transport.ts';
import type { NotifyJob } from './notify/jobs.ts';
import type { SmsTransport } from './notify/sms-transport.ts';
import { composeOnCall } from './oncall/compose.ts';
import { composePeople } from './people/compose.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import { enqueuerOf } from './platform/feature.ts';
import type { JobQueue } from './platform/job-queue.ts';
import type { Logger } from './platform/logger.ts';
import type { RateLimiter } from './platform/rate-limiter.ts';
import type { Prober } from './probes/types.ts';
import { pushFeatureRoutes } from './push/compose.ts';
import { composeReports } from './reports/compose.ts';
import { searchRoutes } from './search/routes.ts';
import { composeSkills } from './skills/compose.ts';
import { composeStatus } from './status/compose.ts';
import type { StatusStreamSettings } from './status/stream-service.ts';
import { composeStatusPages } from './status-pages/compose.ts';
import { createCursorSeal } from './store/cursor-seal.ts';
import { loadCursorSecret } from './store/cursor-secret.ts';
import type { Table } from './store/table.ts';
import { createMemoryStreamSlots, type StreamSlots } from './streams/stream-slots.ts';
import { composeTeams } from './teams/compose.ts';
import { uptimeRoutes } from './uptime/routes.ts';
import { createUptimeService } from './uptime/uptime-service.ts';

/** What every runtime provides to the core. */
export interface CoreDeps extends Pick<ProbingDeps, 'probeSoon'> {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Config;
  /** Probe settings: extra trusted CAs (tests), the http probes' transport (the local runtime's choice). */
  probe?: ProbingDeps['probe'];
  /** Where probes run; default on the event loop (the local runtime may hand them to probe threads). */
  prober?: Prober;
  /** How GET /v1/status/stream follows new events; default: it polls the feed (works in any process). */
  statusStream?: StatusStreamSettings;
  /** Where the per-key and per-address rate limits are kept; default this process's memory. */
  rateLimiter?: RateLimiter;
  /** The tenant ceiling's limiter for pings (a lease over `rateLimiter` in the cloud); default `rateLimiter`. */
  pingTenantLimiter?: RateLimiter;
  /** Where open streams hold their slots (the per-key and per-tenant caps); default this process's memory. */
  streamSlots?: StreamSlots;
  /** The notify queue: state-change events, deliveries and repeats (the local SQLite queue, SQS in the cloud). */
  notifyQueue: JobQueue<NotifyQueueJob>;
  /** The action queue: state_change triggers, runs and pipeline deadlines (the local SQLite queue, SQS in the cloud). */
  actionQueue: JobQueue<ActionJob>;
  /** Outbound TLS trust and name resolution of channels and actions (tests: a test CA), and the process's kept-alive pools. */
  egress?: EgressSettings;
  /** The legacy MCP SSE stream's limits (the cloud ends it before the Lambda timeout). */
  mcpSse?: Partial<LegacyStreamSettings>;
  /** Aborted when the runtime stops: waiting requests (the agents' long-polls) answer at once. */
  stopping?: AbortSignal;
  /** How email channels send: SMTP locally, SES in the cloud; undefined: email deliveries fail, saying why. */
  email?: EmailTransport;
  /** How sms channels with provider sns send: Amazon SNS in the cloud; undefined locally. */
  smsTransport?: SmsTransport;
  /** Where a browser check's draft runs when this process has no browser (the cloud's draft browser function). */
  draftBrowser?: Prober | undefined;
  /** Where browser checks' screenshots are kept: files in the data dir locally, S3 in the cloud; absent: none. */
  artifacts?: ArtifactStore | undefined;
}

/**
 * The shared app, which each runtime's root builds over its own ports (lib/local/runtime.ts,
 * lib/cloud/http-composition.ts): the route table, the change-feed consumers and the services,
 * assembled from what each feature contributes (lib/<feature>/compose.ts) and wired across them.
 */
export function createApp(deps: CoreDeps) {
  // A new tenant starts with the catalog-ops skill (lib/mcp/builtin-tools.ts).
  const probing = composeProbing({ ...deps, tenantStarter: starterSkillOps });
  const { tenants, checks, checkDeps, recorder } = probing;
  // A browser check's screenshots are stored through the runtime's artifact store as its result is recorded.
  const jobRunner = { ...probing.jobRunner, artifacts: deps.artifacts };
  // One seal per process: the secret is read (or created) at the first paged read, then cached.
  const cursors = createCursorSeal(() => loadCursorSecret(deps.table));
  const people = composePeople({ ...deps, tenants, cursors });
  const { keys, keyService, authenticate, rateLimit } = people;
  const blueprints = createBlueprintStore(deps.table);
  const entities = createEntityStore(deps.table);
  // Entity responses say whether a maintenance window covers the entity (the tenant's windows, read once per response).
  const maintenanceOf = (tenantId: string) => maintenanceLookup(deps.table, deps.clock, tenantId);
  // A change of an entity's state rule re-aggregates it (the checks engine's ruleChangeOps).
  const catalog = { table: deps.table, clock: deps.clock, blueprints, entities, maintenance: maintenanceOf };
  const catalogDeps = { ...catalog, ruleChangeOps };
  const checkService = createCheckService({ ...checkDeps, entities, cursors, runtime: deps.config.runtime });
  const runNow = createRunNow({ ...checkDeps, ...jobRunner, checkService, limiter: people.limiter });
  const draftRun = createDraftRun({
    prober: jobRunner.prober,
    aloneProber: deps.draftBrowser,
    entities,
    limiter: people.limiter,
    runtime: deps.config.runtime,
  });
  // Notify's own jobs on the notify queue (which carries every feature's: lib/features/list.ts).
  const notifyQueue = enqueuerOf<NotifyQueueJob, NotifyJob>(deps.notifyQueue);
  const escalation = composeEscalation({ table: deps.table, clock: deps.clock });
  const emailDailyLimit = async (tenantId: string) =>
    (await tenants.getTenant(tenantId))?.email_daily_limit ?? DEFAULT_LIMITS.email_daily_limit;
  const notifications = composeNotifications({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger,
    config: deps.config,
    queue: notifyQueue,
    tenants,
    checkService,
    cursors,
    egress: deps.egress,
    email: deps.email,
    smsTransport: deps.smsTransport,
    policyExists: escalation.policyExists,
    // Escalation policies page people by their contact plans, through this runtime's e-mail and SMS.
    paging: pagingFor({
      ...deps,
      cursors,
      queue: notifyQueue,
      publicUrl: deps.config.publicUrl,
      emailDailyLimit,
      // Each page carries its person's single-use acknowledgement link (lib/ack-links).
      links: (incident, userId) =>
        mintAckLinks(
          { table: deps.table, clock: deps.clock, config: deps.config },
          { tenantId: incident.tenant_id, incidentId: incident.id, userId },
        ),
    }),
  });
  const actions = composeActions({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger,
    config: deps.config,
    queue: deps.actionQueue,
    checks,
    cursors,
    egress: deps.egress,
    authenticateKey: async (ctx) =>
      (await rateLimit.admit({ ...ctx, body: ctx.rawBody }, authenticate)).principal,
    limits: rateLimit,
    tenants,
  });

  // An incident's timeline shows the alerts notify sent and the runs actions fired: each contributes its part.
  const incidents = composeIncidents({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger,
    cursors,
    sources: {
      alerts: notifications.incidentAlerts,
      actionRuns: actions.incidentRuns,
      pages: escalation.pages,
    },
    // An acknowledgement is recorded on the entity's triggered outside alerts (lib/integrations);
    // the channels are told from the change feed (lib/notify's acknowledge consumer).
    onAcknowledged: async (record) => {
      await integrations.incidentAcknowledged(record);
    },
    // The people an incident's climb paged are told when it is resolved by hand (lib/escalation).
    onResolved: resolvedOnQueue(deps.table, deps.notifyQueue, deps.logger),
  });
  const uptime = createUptimeService({ table: deps.table, clock: deps.clock, cursors, checkService });
  // Teams and who is on call (issue 55 item 5): its routes, and the who service the MCP tool asks.
  const teams = composeTeams({
    table: deps.table,
    clock: deps.clock,
    blueprints,
    entities,
    policies: escalation.policies,
  });
  const skills = composeSkills({
    table: deps.table,
    clock: deps.clock,
    actions: actions.actions,
    toolsets: BUILTIN_TOOLSETS,
  });
  // Routes called in-process for a caller the router admitted (configuration apply): `routes` is read at the first call.
  const invoke = createRouteInvoker({ routes: () => routes, audit: people.audit, logger: deps.logger });
  const configDocs = composeConfigDocs({
    invoke,
    limiter: people.limiter,
    limit: deps.config.configObjectsLimit,
  });
  const catalogRouteDeps = catalogServices({ ...catalogDeps, cursors });
  // Outside alerts (issue 77): each integration's alerts land on catalog entities as outside checks.
  const integrations = composeIntegrations({
    ...deps,
    cursors,
    hosts: hostPolicyOf(deps.config),
    limits: rateLimit,
    tenants,
    catalog: { blueprints: catalogRouteDeps.blueprintService, entities: catalogRouteDeps.entityService },
    entities,
    egressAllow: deps.config.egressAllow,
    outsideChecks: createOutsideChecks({ ...checkDeps, entities, tenants, recorder }),
    acknowledgeIncident: incidents.service.acknowledgeOpenOf,
  });
  const mcp = composeMcp({
    table: deps.table,
    clock: deps.clock,
    cursors,
    blueprints,
    entities,
    checkService: { ...checkService, runNow },
    prober: jobRunner.prober,
    runtime: deps.config.runtime,
    skills: skills.skills,
    actions: actions.actions,
    actionRunner: actions.actionRunner,
    incidents: incidents.service,
    simulator: notifications.simulator,
    policies: notifications.policyService,
    audit: people.mcpAudit,
    logger: deps.logger,
    config: () => configDocs.engine,
    who: teams.who,
    outsideAlerts: integrations.outsideAlerts,
  });

  const locations = composeLocations({ ...deps, tenants, checks, recorder, decider: jobRunner.decider });
  const streamSlots = deps.streamSlots ?? createMemoryStreamSlots(deps.config.streamCaps);
  const status = composeStatus({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger,
    cursors,
    slots: streamSlots,
    settings: deps.statusStream ?? { follow: 'poll' },
  });

  const reports = composeReports({ ...deps, cursors, email: deps.email });
  // The notify queue's jobs, each kind to the feature that declares it (lib/features).
  const notifier = {
    ...notifications.notifier,
    handle: hostNotifyJobs({
      ...deps,
      queue: deps.notifyQueue,
      cursors,
      emailDailyLimit,
      notifier: notifications.lent,
    }),
  };
  const statusPages = composeStatusPages({
    table: deps.table,
    clock: deps.clock,
    tenantLive: async (tenantId) => (await tenants.getTenant(tenantId))?.disabled === false,
    hosts: hostPolicyOf(deps.config),
    pageAccess: people.pageAccess,
    pageDomains: deps.config.pageDomains,
    queue: deps.notifyQueue,
    // Mail goes out where the notifier has a transport and a sender (compose-notifier.ts).
    mail: deps.email !== undefined && deps.config.emailFrom !== undefined,
  });
  const mcpResources = { ...mcp.readers, statusPages: statusPages.pages };
  const routes: Route[] = [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      auth: 'none',
      limit: 'none',
      operationId: 'getHealth',
      tag: 'Meta',
      summary: 'Liveness',
      schemas: { responses: { 200: z.strictObject({ status: z.literal('ok') }) } },
      handler: async () => ok({ status: 'ok' }),
    }),
    ...people.routes,
    ...catalogRoutes(catalogRouteDeps),
    ...checkRoutes({
      checkService,
      reads: createCheckReadService({ table: deps.table, checkService, clock: deps.clock, cursors }),
      runNow,
      draftRun,
    }),
    ...artifactRoutes({ checkService, tenants, clock: deps.clock, artifacts: deps.artifacts }),
    ...status.routes,
    ...pushFeatureRoutes({
      ...deps,
      blueprints,
      entities,
      checkService,
      checks,
      recorder,
      tenants,
      cursors,
      limits: rateLimit,
      hosts: hostPolicyOf(deps.config),
    }),
    ...notifications.routes,
    ...maintenanceRoutes({ maintenance: createMaintenanceService({ table: deps.table, clock: deps.clock }) }),
    ...actions.routes,
    ...incidents.routes,
    ...statusPages.routes,
    ...uptimeRoutes({ uptime }),
    ...reports.routes,
    ...composeOnCall({
      table: deps.table,
      clock: deps.clock,
      hosts: hostPolicyOf(deps.config),
      tenantLive: async (tenantId) => (await tenants.getTenant(tenantId))?.disabled === false,
    }).routes,
    ...composeContacts({ ...deps, cursors, emailDailyLimit }).routes,
    ...teams.routes,
    ...integrations.routes.authed,
    ...integrations.routes.open,
    // Acknowledgement links (/a/{token}) a page's message carries (issue 55 item 4).
    ...composeAckLinks({
      table: deps.table,
      clock: deps.clock,
      incidents: incidents.service,
      tenantLive: async (tenantId) => (await tenants.getTenant(tenantId))?.disabled === false,
    }).routes,
    ...escalation.routes,
    ...locations.routes,
    ...searchRoutes({ table: deps.table, cursors }),
    ...skills.routes,
    ...convertRoutes(),
    ...configDocs.routes,
    ...mcpRoutes({
      tools: mcp.tools,
      relay: createMcpRelay({ table: deps.table, clock: deps.clock }),
      table: deps.table,
      slots: streamSlots,
      resources: mcpResources,
      follow: status.follow,
      clock: deps.clock,
      logger: deps.logger,
      authenticateKey: async (ctx) =>
        (await rateLimit.admit({ ...ctx, body: ctx.rawBody }, authenticate)).principal,
      legacy: deps.mcpSse,
      hosts: deps.config,
    }),
    openApiRoute(() => routes),
  ];

  /** Change-feed consumers, fed by the sqlite outbox pump locally and DynamoDB Streams in the cloud. */
  const changeConsumers = composeChangeConsumers({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger,
    notifyQueue: deps.notifyQueue,
    actionQueue: deps.actionQueue,
    statusStream: status.consumer,
    artifacts: deps.artifacts,
  });

  const { authenticateLocation } = locations;
  const router = createRouter({
    routes,
    authenticate,
    authenticateLocation,
    rateLimit,
    verifyCsrf: people.verifyCsrf,
    ...(people.audit ? { audit: people.audit } : {}),
    logger: deps.logger,
    // A status page's custom domain serves that page's routes alone (lib/status-pages).
    mapHost: statusPages.mapHost,
  });
  return {
    config: deps.config,
    routes,
    router,
    invoke,
    /** The configuration engine (plan, apply, export), for the MCP tools and the console. */
    configEngine: configDocs.engine,
    changeConsumers,
    consumers: consumerList(changeConsumers),
    tenants,
    keys,
    keyService,
    entities,
    checks,
    checkService,
    recorder,
    jobRunner,
    /** The runtime's artifact store (browser checks' screenshots), if it keeps any. */
    artifacts: deps.artifacts,
    policies: notifications.policies,
    channels: notifications.channels,
    deliveries: notifications.deliveries,
    senders: notifications.senders,
    notifier,
    notifyQueue: deps.notifyQueue,
    actionQueue: deps.actionQueue,
    actions: actions.actions,
    executions: actions.executions,
    actionRunner: actions.actionRunner,
    actionWorker: actions.actionWorker,
    incidents: incidents.service,
    skills: skills.skills,
    tools: mcp.tools,
    reports: reports.sender,
  };
}

export type App = ReturnType<typeof createApp>;
