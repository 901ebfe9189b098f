import { type CreateSkillBody, createSkillBody } from '../skills/manifest.ts';
import { skillCreatedOps } from '../skills/skill-items.ts';
import { newSkillRecord } from '../skills/skill-service.ts';
import type { WriteOp } from '../store/table.ts';
import { CATALOG_OPS_MANIFEST } from './builtins/toolsets/catalog-ops.ts';

/**
 * The built-in tools, as the rest of the code base sees them: the definitions, the toolsets that
 * offer them (docs/mcp.md is generated from them) and the skill a new tenant starts with; the tools
 * MCP binds itself (OWN_TOOLS) and the kit the features' mounts bind theirs with (`bindTools`,
 * lib/features/feature-routes.ts, whose BUILTIN_TOOLS lists them all).
 */

export { getActionRun } from './builtins/action-runs.ts';
export { getAuditLog } from './builtins/audit-log.ts';
export { getBlastRadius } from './builtins/blast-radius.ts';
export { getEntity, listBlueprints, listEntities } from './builtins/catalog.ts';
export { deleteCheck, updateCheck } from './builtins/check-edits.ts';
export { getCheckResults } from './builtins/check-results.ts';
export { getCheckRuns } from './builtins/check-runs.ts';
export { createCheck } from './builtins/checks.ts';
export { applyConfig, planConfig } from './builtins/config.ts';
export { explainAlerting } from './builtins/explain-alerting.ts';
export { explainEntityState } from './builtins/explain-entity.ts';
export { FIND_TOOLS_ENTRY } from './builtins/find-tools.ts';
export { getPingLog, listHeartbeats } from './builtins/heartbeats.ts';
export { acknowledgeIncident, addIncidentNote, resolveIncident } from './builtins/incidents.ts';
export { OWN_TOOLS } from './builtins/index.ts';
export { createMaintenance, listMaintenance, startMaintenance } from './builtins/maintenance.ts';
export {
  acknowledgeOutsideAlert,
  listOutsideAlerts,
  resolveOutsideAlert,
} from './builtins/outside-alerts.ts';
export { createPageIncident, updatePageIncident } from './builtins/page-incidents.ts';
export { runCheck } from './builtins/run-check.ts';
export { searchEntities } from './builtins/search.ts';
export { silenceCheck } from './builtins/silence-check.ts';
export { listIncidents } from './builtins/status.ts';
export { getStatusSummary } from './builtins/summary.ts';
export { CATALOG_OPS_MANIFEST } from './builtins/toolsets/catalog-ops.ts';
export { BUILTIN_TOOLSETS } from './builtins/toolsets/index.ts';
export { getUptime } from './builtins/uptime.ts';
export { whoIsOnCall } from './builtins/who-is-on-call.ts';
export { type BoundTool, type BuiltinTool, bindTools, type ToolBinding } from './tool-kit/deps.ts';

/**
 * catalog-ops' manifest as parsed, once a process: it is a constant, and parsing it compiles each
 * tool's inputSchema with a fresh ajv (35 to 450 ms a tenant on the 2-core machine; up to 1.25 s of
 * a first start's CPU, profiled). Each tenant gets a copy.
 */
let starterBody: CreateSkillBody | undefined;

/**
 * The writes that register catalog-ops for a new tenant, in its creation's transaction (a tenant
 * store option): a new user's first tools/list is not empty. It is a skill like any other, which an
 * admin may disable or delete.
 */
export function starterSkillOps(tenantId: string, nowMs: number): WriteOp[] {
  starterBody ??= createSkillBody.parse(CATALOG_OPS_MANIFEST);
  return skillCreatedOps(newSkillRecord(tenantId, structuredClone(starterBody), nowMs)).ops;
}
