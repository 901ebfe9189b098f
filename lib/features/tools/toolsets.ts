import { getAuditLog } from '../../audit/mcp-tools.ts';
import { acknowledgeIncident, addIncidentNote, resolveIncident } from '../../incidents/mcp-tools.ts';
import {
  acknowledgeOutsideAlert,
  listOutsideAlerts,
  resolveOutsideAlert,
} from '../../integrations/mcp-tools.ts';
import { createMaintenance, listMaintenance, startMaintenance } from '../../maintenance/mcp-tools.ts';
import { OWN_TOOLS, starterSkillOpsOf, toolsetsOf } from '../../mcp/builtin-tools.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { searchEntities } from '../../search/mcp-tools.ts';
import { getBlastRadius } from '../../status/blast-radius-tool.ts';
import { listIncidents } from '../../status/incidents-tool.ts';
import { getStatusSummary } from '../../status/summary-tool.ts';
import { createPageIncident, updatePageIncident } from '../../status-pages/mcp-tools.ts';
import { whoIsOnCall } from '../../teams/mcp-tools.ts';
import { getUptime } from '../../uptime/mcp-tools.ts';
import { getActionRun } from './action-runs.ts';
import { getEntity, listBlueprints, listEntities } from './catalog.ts';
import { deleteCheck, updateCheck } from './check-edits.ts';
import { getCheckResults } from './check-results.ts';
import { getCheckRuns } from './check-runs.ts';
import { applyConfig, planConfig } from './config.ts';
import { createCheck } from './create-check.ts';
import { explainAlerting } from './explain-alerting.ts';
import { explainEntityState } from './explain-entity.ts';
import { getPingLog, listHeartbeats } from './heartbeats.ts';
import { runCheck } from './run-check.ts';
import { silenceCheck } from './silence-check.ts';

/**
 * Every built-in tool's definition, each in its feature's folder with its toolset entry (`offer`;
 * the catalog's, the checks', the push checks', notify's, the actions' and the configuration's
 * here in ./, their folders' faces being full), and MCP's own; the mounts bind them
 * (lib/features/feature-routes.ts's BUILTIN_TOOLS, which test/mcp/toolsets.test.ts holds to this
 * list). The toolsets are built from them (lib/mcp: toolsetsOf): a new tool is its definition,
 * its mount's binding and its line here.
 */
export const BUILTIN_DEFINITIONS: readonly BuiltinTool<never>[] = [
  ...OWN_TOOLS,
  ...[getStatusSummary, getBlastRadius, listIncidents, searchEntities, getUptime],
  ...[listBlueprints, listEntities, getEntity],
  ...[getCheckResults, createCheck, runCheck, explainEntityState, updateCheck, deleteCheck, silenceCheck],
  ...[listHeartbeats, getPingLog, getCheckRuns],
  ...[acknowledgeIncident, addIncidentNote, resolveIncident],
  ...[listOutsideAlerts, acknowledgeOutsideAlert, resolveOutsideAlert],
  ...[listMaintenance, createMaintenance, startMaintenance],
  ...[createPageIncident, updatePageIncident, whoIsOnCall, explainAlerting],
  ...[planConfig, applyConfig, getAuditLog, getActionRun],
] as readonly BuiltinTool<never>[];

/** The built-in toolsets, as the definitions offer themselves (docs/mcp.md is generated from them). */
export const BUILTIN_TOOLSETS = toolsetsOf(BUILTIN_DEFINITIONS);

/** catalog-ops: the toolset a new tenant starts with. */
export const CATALOG_OPS_MANIFEST = (() => {
  const manifest = BUILTIN_TOOLSETS.find((toolset) => toolset.slug === 'catalog-ops');
  if (!manifest) throw new Error('no built-in toolset catalog-ops');
  return manifest;
})();

/** The writes that register catalog-ops for a new tenant (lib/mcp/builtin-tools.ts). */
export const starterSkillOps = starterSkillOpsOf(CATALOG_OPS_MANIFEST);
