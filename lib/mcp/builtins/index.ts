import { showBlastRadius, showStatus } from '../apps/show-tools.ts';
import type { BoundTool, Builtin, BuiltinDeps, BuiltinTool } from '../tool-kit/deps.ts';
import { getBlastRadius } from './blast-radius.ts';
import { getEntity, listBlueprints, listEntities } from './catalog.ts';
import { getCheckRuns } from './check-runs.ts';
import { explainEntityState } from './explain-entity.ts';
import { findTools } from './find-tools.ts';
import { getPingLog, listHeartbeats } from './heartbeats.ts';
import { createMaintenance, listMaintenance, startMaintenance } from './maintenance.ts';
import { referencesOf } from './references.ts';
import { searchEntities } from './search.ts';
import { listIncidents } from './status.ts';
import { getStatusSummary } from './summary.ts';
import { getUptime } from './uptime.ts';

/**
 * The built-ins MCP binds to its own services (BuiltinDeps): the catalog's and the board's reads
 * (which its prompts and app views share), and those of the features that mount from their own
 * folders (maintenance, uptime, heartbeats: those folders import nothing of lib/mcp). Every other
 * built-in is defined next to its feature's binding and bound by its mount (`bindTools`); the list
 * of them all is lib/features/feature-routes.ts's BUILTIN_TOOLS.
 */
export const OWN_TOOLS: readonly BuiltinTool[] = [
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

/** The built-ins by name: every toolset's entries, and find_tools (always listed, in none). */
const offered = (toolsets: BuiltinDeps['toolsets']): Set<string> =>
  new Set([...toolsets.flatMap((toolset) => toolset.tools.map((tool) => tool.name)), findTools.name]);

/**
 * Every built-in bound, by name: MCP's own over `deps`, and those the features' mounts bound
 * (`declared`, each over its feature's services). A built-in is a tool a toolset of `deps.toolsets`
 * offers (BUILTIN_TOOLSETS; or find_tools): refuses a tool bound twice, one bound that no toolset offers, and one offered that
 * nothing binds.
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
  const names = offered(deps.toolsets);
  const bound = new Map<string, Builtin>();
  for (const { name, ...tool } of [...own, ...declared]) {
    if (bound.has(name)) throw new Error(`the built-in tool ${name} is bound twice`);
    if (!names.has(name)) throw new Error(`${name} is no built-in tool: no toolset offers it`);
    bound.set(name, tool);
  }
  const unbound = [...names].filter((name) => !bound.has(name));
  if (unbound.length > 0) throw new Error(`no mount binds the built-in tools ${unbound.join(', ')}`);
  return bound;
}
