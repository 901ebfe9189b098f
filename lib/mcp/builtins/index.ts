import { type BoundTool, type Builtin, type BuiltinTool, bindTools } from '../../platform/mcp-tool.ts';
import { showBlastRadius, showStatus } from '../apps/show-tools.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';
import { findTools } from './find-tools.ts';

/**
 * The built-ins MCP binds to its own services (BuiltinDeps): its app views (show_status,
 * show_blast_radius) and find_tools; the services are the reads its prompts and views share. Every other built-in is bound by its
 * feature's mount (`bindTools`, lib/features); the list of them all is derived there
 * (lib/features/feature-routes.ts's BUILTIN_TOOLS).
 */
export const OWN_TOOLS: readonly BuiltinTool<BuiltinDeps>[] = [showStatus, showBlastRadius, findTools];

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
  const own = bindTools((own: BuiltinDeps) => own, OWN_TOOLS).bind(deps);
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
