import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ActionStore, ExecutionStore } from '../../actions/stores.ts';
import type { AuditService } from '../../audit/audit-service.ts';
import type { EntityStore } from '../../catalog/entities.ts';
import type { RelationStore } from '../../catalog/relations.ts';
import type { BlueprintService, EntitySearch, EntityService } from '../../catalog/services.ts';
import type { RunNow } from '../../checks/probing.ts';
import type { CheckReadService, CheckService } from '../../checks/services.ts';
import type { ConfigEngine } from '../../config-doc/kind.ts';
import type { Principal } from '../../domain/principal.ts';
import type { IncidentService } from '../../incidents/incident-service.ts';
import type { MaintenanceService } from '../../maintenance/maintenance-service.ts';
import type { PolicyService, Simulator } from '../../notify/compose.ts';
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
import type { PageIncidentService } from '../../status-pages/page-incidents.ts';
import type { WhoService } from '../../teams/who-service.ts';
import type { UptimeService } from '../../uptime/uptime-service.ts';

/**
 * The tool kit (lib/mcp/tool-kit): what the built-in tools (../builtins) and the app tools (../apps)
 * share, below both: the services they run on (here), their results (result.ts), the entity an
 * argument names (entity-ref.ts) and the dependency walk (graph.ts).
 */

/** What the outside-alert tools need of lib/integrations (its compose's `outsideAlerts`). */
export interface OutsideAlertTools {
  list(
    tenantId: string,
    query: {
      limit: number;
      cursor?: string | undefined;
      entity_id?: string | undefined;
      status?: 'open' | 'triggered' | 'acknowledged' | 'resolved' | undefined;
    },
  ): Promise<{ alerts: OutsideAlertView[]; nextCursor: string | null }>;
  /** Throws not-found unless the tenant's integration holds an alert of that dedup key. */
  require(tenantId: string, integrationId: string, dedupKey: string): Promise<void>;
  act(
    tenantId: string,
    integrationId: string,
    dedupKey: string,
    action: 'acknowledge' | 'resolve',
  ): Promise<{ integration: { name: string }; alert: OutsideAlertView }>;
}

/** An outside alert as the tools show it. */
interface OutsideAlertView {
  id: string;
  integration_id: string;
  dedup_key: string;
  entity_id: string;
  status: string;
  severity: string;
  summary: string;
  count: number;
  first_at: string;
  last_at: string;
}

/** The services the built-in tools read and write through: the same ones the HTTP routes use. */
export interface BuiltinDeps {
  clock: Clock;
  status: Pick<StatusService, 'board' | 'transitions'>;
  blueprints: Pick<BlueprintService, 'list'>;
  entities: Pick<EntityService, 'list' | 'get'>;
  entityStore: Pick<EntityStore, 'getById' | 'get' | 'existing'>;
  relations: Pick<RelationStore, 'list'>;
  /** runNow: run_check's probe now (POST /v1/checks/{id}/run's). */
  checkService: Pick<
    CheckService,
    'list' | 'create' | 'requireCheck' | 'page' | 'read' | 'named' | 'update' | 'remove'
  > & { runNow: RunNow };
  /** silence_check: the checks' notification policies (POST /v1/checks/{id}/policy's service). */
  policies: Pick<PolicyService, 'upsert'>;
  checkReads: Pick<CheckReadService, 'results' | 'transitions'>;
  /** list_heartbeats and get_ping_log: push checks' ping logs (GET /v1/checks/{id}/pings's service). */
  pingLog: Pick<PingLogService, 'page' | 'latest'>;
  /** get_check_runs: push checks' runs and learned normal (GET /v1/checks/{id}/runs's and /normal's service). */
  runLog: Pick<RunLogService, 'page' | 'normal'>;
  /** The app's prober: the SSRF rules of checks (VIGIL_ALLOW_PRIVATE_TARGETS) apply. */
  prober: Prober;
  /** The runtime: create_check refuses a check type it cannot run, before probing. */
  runtime: Runtime;
  incidents: Pick<IncidentService, 'list' | 'get' | 'acknowledge' | 'resolve' | 'addNote'>;
  maintenance: Pick<MaintenanceService, 'list' | 'create'>;
  /** create_page_incident and update_page_incident: a status page's written incidents. */
  pageIncidents: Pick<PageIncidentService, 'create' | 'addUpdate' | 'get' | 'list'>;
  uptime: Pick<UptimeService, 'checkUptime' | 'entityUptimeById'>;
  /** get_action_run: executions (any tenant's: the tool checks the caller's) and their log lines. */
  executions: Pick<ExecutionStore, 'get' | 'readLogs'>;
  /** search_entities' reads of the entity search indexes. */
  search: EntitySearch;
  actions: Pick<ActionStore, 'get'>;
  /** explain_alerting: the notifier's decisions without sending (POST /v1/notify/simulate). */
  simulator: Simulator;
  /** get_audit_log: the audit log's reads (GET /v1/audit's). */
  audit: Pick<AuditService, 'list'>;
  /** plan_config and apply_config: the configuration engine, made after the routes it calls (so read at each call). */
  config?: () => ConfigEngine | undefined;
  /** who_is_on_call: GET /v1/oncall's service (lib/teams). */
  who: Pick<WhoService, 'whoIsOnCall'>;
  /** list, acknowledge and resolve outside alerts (lib/integrations). */
  outsideAlerts: OutsideAlertTools;
  /** find_tools: the tenant's registered skills (enabled or not)… */
  skills: { list(tenantId: string): Promise<SkillRecord[]> };
  /** …and the built-in toolsets. */
  toolsets: readonly CreateSkillBody[];
  /** The log of the calls the configuration engine makes for a tool. */
  logger: Logger;
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
export interface BuiltinTool {
  name: string;
  annotations: BuiltinAnnotations;
  /** What tools/list shows as the tool's `_meta`: an app tool's view (`ui.resourceUri`, lib/mcp/apps). */
  meta?: Record<string, unknown>;
  handler(deps: BuiltinDeps, caller: Principal, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** A built-in bound to the app's services, as the tool catalog dispatches it. */
export interface Builtin {
  annotations: BuiltinAnnotations;
  meta?: Record<string, unknown> | undefined;
  run(caller: Principal, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Throws the not-found error of the first object the arguments name that the tenant lacks (./references.ts). */
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
