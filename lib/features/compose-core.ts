import { mintAckLinks } from '../ack-links/compose.ts';
import { composeActions } from '../actions/compose.ts';
import { DEFAULT_LIMITS } from '../auth/records.ts';
import { createBlueprintStore } from '../catalog/blueprints.ts';
import { catalogServices } from '../catalog/compose.ts';
import { createEntityStore } from '../catalog/entities.ts';
import { createRunNow } from '../checks/probing.ts';
import { createCheckService, createOutsideChecks, ruleChangeOps } from '../checks/services.ts';
import { composeEscalation } from '../escalation/compose.ts';
import { pagingFor } from '../escalation/compose-paging.ts';
import { resolvedOnQueue } from '../escalation/resolution-hook.ts';
import { hostPolicyOf } from '../http/origin-policy.ts';
import type { RouteContext } from '../http/types.ts';
import { composeIncidents } from '../incidents/compose.ts';
import { composeIntegrations } from '../integrations/compose.ts';
import { composeProbing } from '../locations/compose-probing.ts';
import { maintenanceLookup } from '../maintenance/evaluate.ts';
import { composeNotifications } from '../notify/compose.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import { composePeople } from '../people/compose.ts';
import { enqueuerOf } from '../platform/feature.ts';
import { createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import type { WriteOp } from '../store/table.ts';
import type { CoreDeps } from './core-deps.ts';
import { type NotifyQueueJob, statusPagesShowing } from './list.ts';

/**
 * The services the features share, wired across them (the first half of lib/app.ts's composition;
 * ./compose-services.ts the rest): tenants and people, the catalog and checks, notify, escalation,
 * actions, incidents and the outside alerts that acknowledge them. What only one feature's routes
 * use is built in that feature's route face (lib/<feature>/feature-routes.ts), not here.
 */
export function composeCore(
  deps: CoreDeps,
  /** The writes that register the starter toolset for a new tenant (catalog-ops). */
  tenantStarter: (tenantId: string, nowMs: number) => WriteOp[],
) {
  // A new tenant starts with the catalog-ops skill (lib/mcp/builtin-tools.ts).
  const probing = composeProbing({ ...deps, tenantStarter });
  const { tenants, checks, checkDeps, recorder } = probing;
  // A browser check's screenshots are stored through the runtime's artifact store as its result is recorded.
  const jobRunner = { ...probing.jobRunner, artifacts: deps.artifacts };
  // One seal per process: the secret is read (or created) at the first paged read, then cached.
  const cursors = createCursorSeal(() => loadCursorSecret(deps.table));
  const people = composePeople({ ...deps, tenants, cursors });
  const { rateLimit, authenticate } = people;
  const tenantLive = async (tenantId: string) => (await tenants.getTenant(tenantId))?.disabled === false;
  const hosts = hostPolicyOf(deps.config);
  // A key's principal, behind the same rate limits as the router's (actions' webhooks, MCP's streams).
  const authenticateKey = async (ctx: RouteContext) =>
    (await rateLimit.admit({ ...ctx, body: ctx.rawBody }, authenticate)).principal;
  const blueprints = createBlueprintStore(deps.table);
  const entities = createEntityStore(deps.table);
  // Entity responses say whether a maintenance window covers the entity (the tenant's windows, read once per response).
  const maintenance = (tenantId: string) => maintenanceLookup(deps.table, deps.clock, tenantId);
  // A change of an entity's state rule re-aggregates it (the checks engine's ruleChangeOps).
  const catalog = { table: deps.table, clock: deps.clock, blueprints, entities, maintenance, ruleChangeOps };
  const catalogRouteDeps = catalogServices({ ...catalog, cursors });
  const checkService = createCheckService({ ...checkDeps, entities, cursors, runtime: deps.config.runtime });
  const runNow = createRunNow({ ...checkDeps, ...jobRunner, checkService, limiter: people.limiter });
  // Notify's own jobs on the notify queue (which carries every feature's: lib/features/list.ts).
  const notifyQueue = enqueuerOf<NotifyQueueJob, NotifyJob>(deps.notifyQueue);
  const escalation = composeEscalation({ table: deps.table, clock: deps.clock });
  const emailDailyLimit = async (tenantId: string) =>
    (await tenants.getTenant(tenantId))?.email_daily_limit ?? DEFAULT_LIMITS.email_daily_limit;
  const notifications = composeNotifications({
    table: deps.table,
    // An alert's holding names the status pages showing its entities (the status pages feature's read).
    statusPagesShowing: statusPagesShowing(deps.table),
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
    authenticateKey,
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
    // An acknowledgement is recorded on the triggered outside alerts (lib/integrations) of the
    // incident's entity and of the entities affected in it (one incident per root cause); the
    // channels are told from the change feed (lib/notify's acknowledge consumer).
    onAcknowledged: async (record) => {
      const affected = await incidents.service.affectedDown(record.tenant_id, record.id);
      for (const entityId of [record.entity_id, ...affected])
        await integrations.incidentAcknowledged({ tenant_id: record.tenant_id, entity_id: entityId });
    },
    // The people an incident's climb paged are told when it is resolved by hand (lib/escalation).
    onResolved: resolvedOnQueue(deps.table, deps.notifyQueue, deps.logger),
  });
  // Outside alerts (issue 77): each integration's alerts land on catalog entities as outside checks.
  const integrations = composeIntegrations({
    ...deps,
    cursors,
    hosts,
    limits: rateLimit,
    tenants,
    catalog: { blueprints: catalogRouteDeps.blueprintService, entities: catalogRouteDeps.entityService },
    entities,
    egressAllow: deps.config.egressAllow,
    outsideChecks: createOutsideChecks({ ...checkDeps, entities, tenants, recorder }),
    acknowledgeIncident: incidents.service.acknowledgeOpenOf,
  });
  return {
    ...deps,
    ...{ tenants, checks, recorder, jobRunner, cursors, people, tenantLive, hosts, authenticateKey },
    ...{ blueprints, entities, catalogRouteDeps, checkDeps, checkService, runNow, escalation },
    ...{ emailDailyLimit, notifications, actions, incidents, integrations, limits: rateLimit },
  };
}
