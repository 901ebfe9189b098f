import * as z from 'zod';
import { catalogRoutes } from '../catalog/compose.ts';
import { artifactRoutes, checkRoutes } from '../checks/routes.ts';
import { createCheckReadService, createDraftRun } from '../checks/services.ts';
import { defineRoute } from '../http/define-route.ts';
import { ok } from '../http/types.ts';
import { createMcpRelay } from '../mcp/relay.ts';
import { mcpRoutes } from '../mcp/routes.ts';
import { defineMount } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import type { Services } from './compose-services.ts';
import { blueprintsKind } from './kinds/blueprints.ts';
import { checksKind } from './kinds/checks.ts';
import { entitiesKind } from './kinds/entities.ts';
import { relationsKind } from './kinds/relations.ts';
import { type ListedMount, listedMount } from './service-mount.ts';
import { getEntity, listBlueprints, listEntities } from './tools/catalog.ts';
import { deleteCheck, updateCheck } from './tools/check-edits.ts';
import { getCheckResults } from './tools/check-results.ts';
import { createCheck } from './tools/create-check.ts';
import { explainEntityState } from './tools/explain-entity.ts';
import { runCheck } from './tools/run-check.ts';
import { silenceCheck } from './tools/silence-check.ts';

/*
 * The mounts of the folders whose faces are at their size limit (lib/catalog, lib/checks and
 * lib/mcp: test/architecture/front-doors.test.ts), over their existing route faces (routes.ts),
 * and the app's own liveness route. Their configuration kinds are in ./kinds/ (the catalog's and
 * the checks' kinds read lib/integrations and lib/notify, which import those folders). The feature
 * list (./list.ts) names each of them; every other feature's mount is in its own folder or ./bound-routes.ts.
 */

/** GET /healthz: liveness. */
export const healthMount: ListedMount = listedMount(
  defineMount({
    name: 'health',
    routes: () => [
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
    ],
  }),
);

/** The catalog's routes (blueprints, entities, relations) over the catalog services the app shares. */
export const catalogMount: ListedMount = listedMount(
  defineMount({
    name: 'catalog',
    routes: (services: Services) => catalogRoutes(services.catalogRouteDeps),
    configKinds: [blueprintsKind, entitiesKind, relationsKind],
    // Over the catalog reads MCP composes (its prompts read the same) and the checks of an entity.
    tools: bindTools(
      ({ mcp, checkService }: Services) => ({ ...mcp.kit, ...mcp.reads, checkService }),
      [listBlueprints, listEntities, getEntity],
    ),
  }),
);

/**
 * The checks' routes (/v1/checks, a check's reads, run now, a draft's run) and a result's
 * artifacts; their kind of the configuration document; and their MCP tools, over the checks'
 * services (the same as the routes').
 */
export const checksMount: ListedMount = listedMount(
  defineMount({
    name: 'checks',
    routes: (services: Services) => {
      const { table, clock, cursors, checkService } = services;
      const draftRun = createDraftRun({
        prober: services.jobRunner.prober,
        aloneProber: services.draftBrowser,
        entities: services.entities,
        limiter: services.people.limiter,
        runtime: services.config.runtime,
      });
      return [
        ...checkRoutes({
          checkService,
          reads: createCheckReadService({ table, checkService, clock, cursors }),
          runNow: services.runNow,
          draftRun,
        }),
        ...artifactRoutes({ checkService, tenants: services.tenants, clock, artifacts: services.artifacts }),
      ];
    },
    configKinds: [checksKind],
    tools: bindTools(
      (services: Services) => {
        const { table, clock, cursors, checkService } = services;
        return {
          ...services.mcp.kit,
          checkService: { ...checkService, runNow: services.runNow },
          checkReads: createCheckReadService({ table, checkService, clock, cursors }),
          prober: services.jobRunner.prober,
          runtime: services.config.runtime,
          policies: services.notifications.policyService,
          // explain_entity_state walks the graph and reads the board MCP composes.
          ...services.mcp.reads,
        };
      },
      [getCheckResults, createCheck, runCheck, explainEntityState, updateCheck, deleteCheck, silenceCheck],
    ),
  }),
);

/** The MCP endpoints (Streamable HTTP and the legacy SSE stream) over the tool catalog. */
export const mcpMount: ListedMount = listedMount(
  defineMount({
    name: 'mcp',
    routes: (services: Services) => {
      const { table, clock } = services;
      return mcpRoutes({
        tools: services.mcp.tools,
        relay: createMcpRelay({ table, clock }),
        table,
        slots: services.streamSlots,
        resources: { ...services.mcp.readers, statusPages: services.statusPages.pages },
        follow: services.status.follow,
        clock,
        logger: services.logger,
        authenticateKey: services.authenticateKey,
        legacy: services.mcpSse,
        hosts: services.config,
      });
    },
  }),
);
