import type { ActionRunner, ActionStore } from '../actions/stores.ts';
import type { McpToolAudit } from '../audit/mcp-audit.ts';
import type { BlueprintStore } from '../catalog/blueprints.ts';
import type { EntityStore, ToolKitDeps } from '../catalog/entities.ts';
import { createRelationStore } from '../catalog/relations.ts';
import { createBlueprintService, createEntityService } from '../catalog/services.ts';
import type { RunNow } from '../checks/probing.ts';
import type { CheckService } from '../checks/services.ts';
import { createCheckReadService, ruleChangeOps } from '../checks/services.ts';
import type { IncidentService } from '../incidents/incident-service.ts';
import { maintenanceLookup } from '../maintenance/evaluate.ts';
import { countUntold } from '../notify/records.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { BoundTool, Builtin } from '../platform/mcp-tool.ts';
import type { CreateSkillBody } from '../skills/manifest.ts';
import type { SkillRecord } from '../skills/skill-items.ts';
import type { BoardReads } from '../status/board-reads.ts';
import { createStatusService } from '../status/status-service.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { createAppResources } from './apps/app-resources.ts';
import { createBuiltins } from './builtins/index.ts';
import type { McpCatalog, McpTool } from './ports.ts';
import { createPromptCatalog } from './prompts/prompt-catalog.ts';
import { createToolCatalog } from './tool-catalog.ts';

export interface McpDeps {
  table: Table;
  clock: Clock;
  cursors: CursorSeal;
  blueprints: BlueprintStore;
  entities: EntityStore;
  checkService: CheckService & { runNow: RunNow };
  /** The skills registry (lib/skills/skill-store.ts): enabled tools for tools/list, every skill for find_tools. */
  skills: {
    listEnabledTools(tenantId: string): Promise<McpTool[]>;
    list(tenantId: string): Promise<SkillRecord[]>;
  };
  actions: Pick<ActionStore, 'get'>;
  actionRunner: ActionRunner;
  /** Incidents (list_incidents' state filters, the prompts' and resources' reads). */
  incidents: IncidentService;
  /** The audit log's recorder of write tool calls (lib/people/compose.ts's `mcpAudit`). */
  audit?: McpToolAudit | undefined;
  logger: Logger;
  /**
   * The built-ins the features' mounts declare, each bound over its feature's services
   * (lib/features/feature-routes.ts): made after this, over the services, so read at the first call.
   */
  featureTools: () => readonly BoundTool[];
  /** The built-in toolsets, built from the built-ins' definitions (lib/features/feature-routes.ts). */
  toolsets: readonly CreateSkillBody[];
}

/**
 * MCP as the app composes it: the tool catalog over the built-ins (the same services as the routes)
 * and runbook actions, with the prompts and the app views scoped by the same tool list, and the
 * readers of the vigil:// resources.
 */
export function composeMcp(deps: McpDeps) {
  const { table, clock, cursors } = deps;
  const catalog = {
    table,
    clock,
    blueprints: deps.blueprints,
    entities: deps.entities,
    maintenance: (tenantId: string) => maintenanceLookup(table, clock, tenantId),
    ruleChangeOps,
  };
  const entities = createEntityService(catalog);
  const checkReads = createCheckReadService({ table, checkService: deps.checkService, clock, cursors });
  const blueprints = createBlueprintService(catalog);
  // What every built-in gets of the tool kit, which the features' mounts bind their tools over.
  const kit: ToolKitDeps = { clock, entityStore: deps.entities, logger: deps.logger };
  // The catalog's and the board's reads, which the prompts and app views read and MCP lends the
  // mounts whose tools read the board or walk the graph.
  const reads: BoardReads = {
    status: createStatusService({
      ...{ table, clock, cursors },
      countUntold: (tenantId, entities) => countUntold(table, tenantId, entities),
    }),
    blueprints,
    entities,
    relations: createRelationStore(table),
  };
  const builtinDeps = {
    ...kit,
    ...reads,
    incidents: deps.incidents,
    skills: deps.skills,
    toolsets: deps.toolsets,
  };
  // Bound at the first call: the features' tools are bound over the services this is part of.
  let bound: ReadonlyMap<string, Builtin> | undefined;
  const boundTools = () => {
    bound ??= createBuiltins(builtinDeps, deps.featureTools());
    return bound;
  };
  const builtins = {
    get: (name: string) => boundTools().get(name),
    has: (name: string) => boundTools().has(name),
  };
  const tools = createToolCatalog({
    skills: deps.skills,
    builtins,
    actions: deps.actions,
    runner: deps.actionRunner,
    clock,
    audit: deps.audit,
  });
  const served: McpCatalog = {
    ...tools,
    prompts: createPromptCatalog({ tools, reads: builtinDeps }),
    apps: createAppResources({ tools, builtins: builtinDeps }),
  };
  // What vigil:// resources read through, but status pages (composed later: lib/app.ts adds them).
  const readers = { blueprints, entities, checks: deps.checkService, checkReads, incidents: deps.incidents };
  return { tools: served, readers, kit, reads, builtins: boundTools };
}
