import { showBlastRadius, showStatus } from '../apps/show-tools.ts';
import type { BoundTool, Builtin, BuiltinAnnotations, BuiltinDeps, BuiltinTool } from '../tool-kit/deps.ts';
import { getActionRun } from './action-runs.ts';
import { getAuditLog } from './audit-log.ts';
import { getBlastRadius } from './blast-radius.ts';
import { getEntity, listBlueprints, listEntities } from './catalog.ts';
import { deleteCheck, updateCheck } from './check-edits.ts';
import { getCheckResults } from './check-results.ts';
import { getCheckRuns } from './check-runs.ts';
import { createCheck } from './checks.ts';
import { applyConfig, planConfig } from './config.ts';
import { explainAlerting } from './explain-alerting.ts';
import { explainEntityState } from './explain-entity.ts';
import { findTools } from './find-tools.ts';
import { getPingLog, listHeartbeats } from './heartbeats.ts';
import { acknowledgeIncident, addIncidentNote, resolveIncident } from './incidents.ts';
import { createMaintenance, listMaintenance, startMaintenance } from './maintenance.ts';
import { acknowledgeOutsideAlert, listOutsideAlerts, resolveOutsideAlert } from './outside-alerts.ts';
import { createPageIncident, updatePageIncident } from './page-incidents.ts';
import { referencesOf } from './references.ts';
import { runCheck } from './run-check.ts';
import { searchEntities } from './search.ts';
import { silenceCheck } from './silence-check.ts';
import { listIncidents } from './status.ts';
import { getStatusSummary } from './summary.ts';
import { getUptime } from './uptime.ts';
import { whoIsOnCall } from './who-is-on-call.ts';

/**
 * Every built-in tool, one definition each; the toolsets (./toolsets) offer all but find_tools,
 * which is always listed. Each is bound to its services once: by MCP itself (OWN_TOOLS) or by the
 * mount of the feature whose services it runs on (lib/features/feature-routes.ts, `bindTools`).
 */
export const BUILTIN_TOOLS: readonly BuiltinTool<never>[] = [
  getStatusSummary,
  listEntities,
  getEntity,
  listBlueprints,
  listIncidents,
  getCheckResults,
  createCheck,
  runCheck,
  getBlastRadius,
  explainEntityState,
  acknowledgeIncident,
  addIncidentNote,
  listMaintenance,
  createMaintenance,
  createPageIncident,
  updatePageIncident,
  getUptime,
  searchEntities,
  getActionRun,
  explainAlerting,
  listHeartbeats,
  getPingLog,
  getCheckRuns,
  getAuditLog,
  planConfig,
  applyConfig,
  whoIsOnCall,
  updateCheck,
  deleteCheck,
  silenceCheck,
  startMaintenance,
  resolveIncident,
  showStatus,
  showBlastRadius,
  listOutsideAlerts,
  acknowledgeOutsideAlert,
  resolveOutsideAlert,
  findTools,
];

/** A built-in's own annotations by name (a manifest offering the tool shows these). */
export function builtinAnnotations(name: string): BuiltinAnnotations {
  const tool = BUILTIN_TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`no built-in tool ${name}`);
  return tool.annotations;
}

/**
 * The built-ins MCP binds to its own services (BuiltinDeps): the catalog's and the board's reads
 * (which its prompts and app views share), and those of the features that mount from their own
 * folders (maintenance, uptime, heartbeats: those folders import nothing of lib/mcp).
 */
const OWN_TOOLS: readonly BuiltinTool[] = [
  getStatusSummary,
  listEntities,
  getEntity,
  listBlueprints,
  listIncidents,
  getBlastRadius,
  explainEntityState,
  listMaintenance,
  createMaintenance,
  getUptime,
  searchEntities,
  listHeartbeats,
  getPingLog,
  getCheckRuns,
  startMaintenance,
  showStatus,
  showBlastRadius,
  findTools,
];

/**
 * Every built-in bound, by name: MCP's own over `deps`, and those the features' mounts declared
 * (`declared`, each bound over its feature's services). Refuses a tool bound twice, one bound that
 * is no built-in, and a built-in nothing binds.
 */
export function createBuiltins(
  deps: BuiltinDeps,
  declared: readonly BoundTool[],
): ReadonlyMap<string, Builtin> {
  const own: BoundTool[] = OWN_TOOLS.map((tool) => ({
    name: tool.name,
    annotations: tool.annotations,
    meta: tool.meta,
    run: (caller, args) => tool.handler(deps, caller, args),
    references: (caller, args) => referencesOf(tool.name)?.(deps, caller, args) ?? Promise.resolve(),
  }));
  const bound = new Map<string, Builtin>();
  for (const { name, ...tool } of [...own, ...declared]) {
    if (bound.has(name)) throw new Error(`the built-in tool ${name} is bound twice`);
    if (!BUILTIN_TOOLS.some((t) => t.name === name)) throw new Error(`${name} is no built-in tool`);
    bound.set(name, tool);
  }
  const unbound = BUILTIN_TOOLS.filter((tool) => !bound.has(tool.name)).map((tool) => tool.name);
  if (unbound.length > 0) throw new Error(`no mount binds the built-in tools ${unbound.join(', ')}`);
  return bound;
}
