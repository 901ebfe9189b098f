import { starterSkillOpsOf, toolsetsOf } from '../../mcp/builtin-tools.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import type { CreateSkillBody } from '../../skills/manifest.ts';

/** catalog-ops among `toolsets`: the toolset a new tenant starts with. */
export function catalogOpsOf(toolsets: readonly CreateSkillBody[]): CreateSkillBody {
  const manifest = toolsets.find((toolset) => toolset.slug === 'catalog-ops');
  if (!manifest) throw new Error('no built-in toolset catalog-ops');
  return manifest;
}

/**
 * The built-in toolsets as the built-ins' definitions offer themselves (`offer`, each definition
 * in its feature's folder: lib/mcp's toolsetsOf), catalog-ops among them, and the writes that
 * register it for a new tenant. `tools` is every built-in's definition: MCP's own and the mounts'
 * (./feature-routes.ts's BUILTIN_TOOLS), so a new tool is its definition and its mount's binding.
 */
export function builtinToolsets(tools: readonly BuiltinTool<never>[]) {
  const toolsets = toolsetsOf(tools);
  const catalogOps = catalogOpsOf(toolsets);
  return { toolsets, catalogOps, starterSkillOps: starterSkillOpsOf(catalogOps) };
}
