import type { CallToolResult } from '@modelcontextprotocol/server';
import type { EntityStore } from '../../catalog/entities.ts';
import type { RelationStore } from '../../catalog/relations.ts';
import type { BlueprintService, EntitySearch, EntityService } from '../../catalog/services.ts';
import type { RunNow } from '../../checks/probing.ts';
import type { CheckReadService, CheckService } from '../../checks/services.ts';
import type { Principal } from '../../domain/principal.ts';
import type { IncidentService } from '../../incidents/incident-service.ts';
import type { MaintenanceService } from '../../maintenance/maintenance-service.ts';
import type { PolicyService } from '../../notify/compose.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Prober } from '../../probes/types.ts';
import type { PingLogService } from '../../push/ping-log.ts';
import type { RunLogService } from '../../push/run-log.ts';
import type { CreateSkillBody } from '../../skills/manifest.ts';
import type { SkillRecord } from '../../skills/skill-items.ts';
import type { StatusService } from '../../status/status-service.ts';
import type { UptimeService } from '../../uptime/uptime-service.ts';

/**
 * The tool kit (lib/mcp/tool-kit): what the built-in tools (../builtins) and the app tools (../apps)
 * share, below both: the services they run on (here), their results (result.ts), the entity an
 * argument names (entity-ref.ts) and the dependency walk (graph.ts).
 */

/**
 * What the tool kit itself needs, which every built-in gets: the clock, the log of the calls the
 * configuration engine makes for a tool, and the entity store an entity argument resolves
 * through (./entity-ref.ts).
 */
export interface ToolKitDeps {
  clock: Clock;
  entityStore: Pick<EntityStore, 'getById' | 'get' | 'existing'>;
  logger: Logger;
}

/**
 * The services of the built-ins MCP binds itself (the catalog's and the status board's reads,
 * which the prompts and app views share, and find_tools'): the same ones the HTTP routes use. A
 * feature's own tools are declared and bound by its mount instead (`bindTools`, each over the
 * kit and that feature's services), so their services are not here.
 */
export interface BuiltinDeps extends ToolKitDeps {
  status: Pick<StatusService, 'board' | 'transitions'>;
  blueprints: Pick<BlueprintService, 'list'>;
  entities: Pick<EntityService, 'list' | 'get'>;
  relations: Pick<RelationStore, 'list'>;
  /** list_incidents and the prompts: the incidents' reads. */
  incidents: Pick<IncidentService, 'list' | 'get'>;
  /** find_tools: the tenant's registered skills (enabled or not)… */
  skills: { list(tenantId: string): Promise<SkillRecord[]> };
  /** …and the built-in toolsets. */
  toolsets: readonly CreateSkillBody[];
}

/**
 * The catalog's and the status board's reads MCP composes (its prompts and app views read them):
 * what it lends the mounts whose tools read the board or walk the graph (`services.mcp.reads`).
 */
export type BoardReads = Pick<BuiltinDeps, 'status' | 'blueprints' | 'entities' | 'relations'>;

/** The board tools' services (get_status_summary, get_blast_radius): the kit and the board's reads. */
export type BoardToolDeps = ToolKitDeps & BoardReads;

/** The catalog tools' services (list_blueprints, list_entities, get_entity), bound by the catalog's mount. */
export interface CatalogToolDeps extends ToolKitDeps, Pick<BoardReads, 'blueprints' | 'entities'> {
  /** get_entity's checks of the entity. */
  checkService: Pick<CheckService, 'list'>;
}

/** explain_entity_state's services, bound by the checks' mount (lib/features/core-routes.ts). */
export interface ExplainToolDeps extends ToolKitDeps, BoardReads {
  checkService: Pick<CheckService, 'list'>;
  checkReads: Pick<CheckReadService, 'results' | 'transitions'>;
}

/** search_entities' services, bound by the search mount (lib/features/feature-routes.ts). */
export interface SearchToolDeps extends ToolKitDeps, Pick<BoardReads, 'status'> {
  /** The entity search indexes. */
  search: EntitySearch;
}

/** The maintenance tools' services, bound by the maintenance mount (lib/features/feature-routes.ts). */
export interface MaintenanceToolDeps extends ToolKitDeps {
  maintenance: Pick<MaintenanceService, 'list' | 'create'>;
  /** start_maintenance's checks, each covering its entity. */
  checkService: Pick<CheckService, 'read' | 'requireCheck'>;
}

/** get_uptime's services, bound by the uptime mount (lib/features/feature-routes.ts). */
export interface UptimeToolDeps extends ToolKitDeps {
  uptime: Pick<UptimeService, 'checkUptime' | 'entityUptimeById'>;
  checkService: Pick<CheckService, 'requireCheck'>;
}

/** The push checks' tools' services, bound by the push mount (lib/features/feature-routes.ts). */
export interface PushToolDeps extends ToolKitDeps {
  checkService: Pick<CheckService, 'page' | 'requireCheck'>;
  /** list_heartbeats and get_ping_log: push checks' ping logs (GET /v1/checks/{id}/pings's service). */
  pingLog: Pick<PingLogService, 'page' | 'latest'>;
  /** get_check_runs: push checks' runs and learned normal (GET /v1/checks/{id}/runs's and /normal's service). */
  runLog: Pick<RunLogService, 'page' | 'normal'>;
}

/** The checks' services their tools take, bound by the checks' mount (lib/features/core-routes.ts). */
export interface CheckToolDeps extends ToolKitDeps {
  /** runNow: run_check's probe now (POST /v1/checks/{id}/run's). */
  checkService: Pick<
    CheckService,
    'list' | 'create' | 'requireCheck' | 'page' | 'read' | 'named' | 'update' | 'remove'
  > & { runNow: RunNow };
  checkReads: Pick<CheckReadService, 'results' | 'transitions'>;
  /** The app's prober: the SSRF rules of checks (VIGIL_ALLOW_PRIVATE_TARGETS) apply. */
  prober: Prober;
  /** The runtime: create_check refuses a check type it cannot run, before probing. */
  runtime: Runtime;
  /** silence_check: the checks' notification policies (POST /v1/checks/{id}/policy's service). */
  policies: Pick<PolicyService, 'upsert'>;
}

/** The check a write's `check_id` names: 404 before the write is confirmed when the tenant has none. */
export async function namedCheck(
  deps: Pick<CheckToolDeps, 'checkService'>,
  caller: Principal,
  args: Record<string, unknown>,
): Promise<void> {
  if (typeof args.check_id === 'string') await deps.checkService.requireCheck(caller.tenantId, args.check_id);
}

/**
 * What a built-in does, fixed by its implementation (MCP ToolAnnotations): tools/list shows these
 * whatever a registered manifest claims, and `readOnlyHint` decides whether read-only keys may
 * list and call the tool.
 */
export interface BuiltinAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The annotations of a built-in that only reads the tenant's own data. */
export const READS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/**
 * The annotations of a built-in that writes: `title`, and whether it destroys, repeats harmlessly or
 * reaches outside the tenant's data (each false unless said).
 */
export function writes(
  title: string,
  hints: { destructive?: boolean; idempotent?: boolean; openWorld?: boolean } = {},
): BuiltinAnnotations & { title: string } {
  return {
    title,
    readOnlyHint: false,
    destructiveHint: hints.destructive ?? false,
    idempotentHint: hints.idempotent ?? false,
    openWorldHint: hints.openWorld ?? false,
  };
}

/**
 * One built-in tool, kept together as the MCP SDK's registerTool keeps a tool: its name, its own
 * annotations and its handler (arguments already validated against the registered inputSchema,
 * defaults filled).
 */
export interface BuiltinTool<D = BuiltinDeps> {
  name: string;
  annotations: BuiltinAnnotations;
  /** What tools/list shows as the tool's `_meta`: an app tool's view (`ui.resourceUri`, lib/mcp/apps). */
  meta?: Record<string, unknown>;
  handler(deps: D, caller: Principal, args: Record<string, unknown>): Promise<CallToolResult>;
  /**
   * Throws the not-found error of the first object the arguments name that the tenant lacks,
   * before a write is confirmed (what the tool itself reads first; a read tool needs none).
   */
  references?(deps: D, caller: Principal, args: Record<string, unknown>): Promise<void>;
}

/** A built-in bound to its services, by name: what a feature's mount binds (`bindTools`). */
export interface BoundTool extends Builtin {
  name: string;
}

/**
 * The built-ins a feature's mount brings (`bindTools`): their definitions, read without services
 * (the list of every built-in is the mounts' and MCP's own: lib/features/feature-routes.ts), and
 * their binding over the services the mount is given.
 */
export interface ToolBinding<S> {
  tools: readonly BuiltinTool<never>[];
  bind(services: S): BoundTool[];
}

/** Binds built-ins to what they run on: the kit and their own services, picked from the mount's by `over`. */
export function bindTools<S, D>(
  over: (services: S) => D,
  tools: readonly BuiltinTool<NoInfer<D>>[],
): ToolBinding<S> {
  return {
    tools: tools as readonly BuiltinTool<never>[],
    bind: (services) => {
      const deps = over(services);
      return tools.map((tool) => ({
        name: tool.name,
        annotations: tool.annotations,
        meta: tool.meta,
        run: (caller, args) => tool.handler(deps, caller, args),
        references: (caller, args) => tool.references?.(deps, caller, args) ?? Promise.resolve(),
      }));
    },
  };
}

/** A built-in bound to the app's services, as the tool catalog dispatches it. */
export interface Builtin {
  annotations: BuiltinAnnotations;
  meta?: Record<string, unknown> | undefined;
  run(caller: Principal, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Throws the not-found error of the first object the arguments name that the tenant lacks (its definition's `references`). */
  references(caller: Principal, args: Record<string, unknown>): Promise<void>;
}

/** Reads an optional string argument. */
export function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Reads a string argument the tool needs (a 400-style tool error when a custom inputSchema let it through empty). */
export function requiredString(args: Record<string, unknown>, name: string): string {
  const value = optionalString(args, name);
  if (value === undefined) throw ValidationError.field(name, 'This field is required.');
  return value;
}

/** Reads a positive integer argument, `fallback` when absent, clamped to `max`. */
export function positiveInt(
  args: Record<string, unknown>,
  name: string,
  fallback: number,
  max: number,
): number {
  const value = args[name];
  const n = typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
  return Math.min(n, max);
}
