import { showBlastRadius, showStatus } from '../apps/show-tools.ts';
import type { Builtin, BuiltinAnnotations, BuiltinDeps, BuiltinTool } from '../tool-kit/deps.ts';
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

/** Every built-in tool, one definition each; the toolsets (./toolsets) offer all but find_tools, which is always listed. */
export const BUILTIN_TOOLS: readonly BuiltinTool[] = [
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

/** The built-ins bound to the app's services, by name. */
export function createBuiltins(deps: BuiltinDeps): ReadonlyMap<string, Builtin> {
  return new Map(
    BUILTIN_TOOLS.map((tool) => [
      tool.name,
      {
        annotations: tool.annotations,
        meta: tool.meta,
        run: (caller, args) => tool.handler(deps, caller, args),
        references: (caller, args) => referencesOf(tool.name)?.(deps, caller, args) ?? Promise.resolve(),
      },
    ]),
  );
}
