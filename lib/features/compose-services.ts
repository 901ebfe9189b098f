import { composeConfigDocs } from '../config-doc/compose.ts';
import type { KindSet } from '../config-doc/registry.ts';
import { createRouteInvoker } from '../http/router.ts';
import type { Route } from '../http/types.ts';
import { composeLocations } from '../locations/compose.ts';
import { starterSkillOpsOf } from '../mcp/builtin-tools.ts';
import { composeMcp } from '../mcp/compose.ts';
import { spendEmailQuota } from '../notify/email-transport.ts';
import { countUntold, readTenantChannels } from '../notify/records.ts';
import type { BoundTool } from '../platform/mcp-tool.ts';
import { composeReports } from '../reports/compose.ts';
import { composeSkills } from '../skills/compose.ts';
import type { CreateSkillBody } from '../skills/manifest.ts';
import { composeStatus } from '../status/compose.ts';
import { composeStatusPages } from '../status-pages/compose.ts';
import { createMemoryStreamSlots } from '../streams/stream-slots.ts';
import { composeTeams } from '../teams/compose.ts';
import { composeCore } from './compose-core.ts';
import type { CoreDeps } from './core-deps.ts';
import { hostNotifyJobs } from './job-hosts.ts';
import { catalogOpsOf } from './tools/toolsets.ts';

/**
 * The services the features share, wired across them, over one runtime's ports (lib/app.ts): the
 * core (./compose-core.ts), then what builds on it (teams, skills, configuration, MCP, locations,
 * status, reports, status pages) and the notify queue's host. The
 * features' route faces (lib/features/feature-routes.ts) are mounted over what this returns.
 * `routes` is the route table, read at the first in-process call (configuration apply), `tools`
 * the MCP tools the mounts bind over these services, read at the first tool call, and
 * `configKinds` the configuration document's kinds the mounts declare, `toolsets` the built-in
 * toolsets their tools' definitions offer themselves in.
 */
export function composeServices(
  deps: CoreDeps,
  mounted: {
    routes: () => Route[];
    tools: () => readonly BoundTool[];
    configKinds: KindSet;
    toolsets: readonly CreateSkillBody[];
  },
) {
  const { routes, configKinds } = mounted;
  const core = composeCore(deps, starterSkillOpsOf(catalogOpsOf(mounted.toolsets)));
  const { table, clock, logger, cursors, tenants, people, checkService, notifications, actions } = core;
  // Teams and who is on call (issue 55 item 5): its routes, and the who service the MCP tool asks.
  const { blueprints, entities } = core;
  const teams = composeTeams({ table, clock, blueprints, entities, policies: core.escalation.policies });
  const skills = composeSkills({ table, clock, actions: actions.actions, toolsets: mounted.toolsets });
  // Routes called in-process for a caller the router admitted (configuration apply).
  const invoke = createRouteInvoker({ routes, audit: people.audit, logger });
  const configDocs = composeConfigDocs({
    invoke,
    limiter: people.limiter,
    limit: deps.config.configObjectsLimit,
    kinds: configKinds,
  });
  const mcp = composeMcp({
    ...{ table, clock, cursors, blueprints, entities, logger },
    checkService: { ...checkService, runNow: core.runNow },
    skills: skills.skills,
    actions: actions.actions,
    actionRunner: actions.actionRunner,
    incidents: core.incidents.service,
    audit: people.mcpAudit,
    featureTools: mounted.tools,
    toolsets: mounted.toolsets,
  });
  const { checks, recorder } = core;
  const locations = composeLocations({ ...deps, tenants, checks, recorder, decider: core.jobRunner.decider });
  const streamSlots = deps.streamSlots ?? createMemoryStreamSlots(deps.config.streamCaps);
  const status = composeStatus({
    ...{ table, clock, logger, cursors, slots: streamSlots },
    settings: deps.statusStream ?? { follow: 'poll' },
    countUntold: (tenantId, entities) => countUntold(table, tenantId, entities),
  });
  const reports = composeReports({
    ...{ ...deps, cursors, email: deps.email },
    spendEmailQuota: (tenantId, count, limit) => spendEmailQuota({ table, clock }, tenantId, count, limit),
  });
  // The notify queue's jobs, each kind to the feature that declares it (lib/features).
  const notifier = {
    ...notifications.notifier,
    handle: hostNotifyJobs({
      ...deps,
      queue: deps.notifyQueue,
      cursors,
      emailDailyLimit: core.emailDailyLimit,
      notifier: notifications.lent,
    }),
  };
  const statusPages = composeStatusPages({
    ...{ table, clock, tenantLive: core.tenantLive, hosts: core.hosts },
    pageAccess: people.pageAccess,
    pageDomains: deps.config.pageDomains,
    queue: deps.notifyQueue,
    // Mail goes out where the notifier has a transport and a sender (compose-notifier.ts).
    mail: deps.email !== undefined && deps.config.emailFrom !== undefined,
  });
  return {
    ...core,
    ...{ teams, skills, invoke, configDocs, mcp, locations, streamSlots, status, reports, notifier },
    ...{ statusPages, tenants },
    // What search reads of notify: the tenant's channels, one bounded page.
    tenantChannels: async (tenantId: string, limit: number) =>
      (await readTenantChannels({ table, cursors }, tenantId, { limit })).channels,
  };
}

/** The shared services the route faces are mounted over (what composeServices returns). */
export type Services = ReturnType<typeof composeServices>;
