import { documentKinds } from '../config-doc/registry.ts';
import type { Route } from '../http/types.ts';
import { OWN_TOOLS } from '../mcp/builtin-tools.ts';
import { loadMounts, mountAll, mountedConfigKinds, mountedTools } from '../platform/feature.ts';
import type { BoundTool, BuiltinTool } from '../platform/mcp-tool.ts';
import type { Services } from './compose-services.ts';
import { FEATURES } from './list.ts';
import type { ServiceMount } from './service-mount.ts';
import { builtinToolsets } from './tools/toolsets.ts';

/**
 * The features' mounts (./list.ts names each with a lazy `import()`), loaded once as this module
 * loads (a top-level await): each feature's routes, configuration kinds and MCP tools, over the
 * shared services (./compose-services.ts), in the list's order, which is the route table's and the
 * OpenAPI document's. Heavy (handlers): only the API composition loads it (lib/app.ts;
 * test/architecture/lean-functions.test.ts keeps it out of the lean functions, whose bundles
 * leave the mount modules out: test/infra/bundle-contents.test.ts).
 */

/** Each mount takes no more than the services give (the assignment type-checks every one). */
const MOUNTS: readonly ServiceMount[] = await loadMounts(FEATURES);

/** Every feature's routes over the shared services, in the list's order. */
export const featureRoutes = (services: Services): Route[] => mountAll(MOUNTS, services);

/** Every feature's MCP tools over the shared services, each bound over its own (the tool catalog's built-ins). */
export const featureTools = (services: Services): BoundTool[] => mountedTools(MOUNTS, services);

/** Every built-in tool's definition: MCP's own, then each mount's, in the list's order. */
export const BUILTIN_TOOLS: readonly BuiltinTool<never>[] = [
  ...OWN_TOOLS,
  ...MOUNTS.flatMap((mount) => mount.tools?.tools ?? []),
];

/** The built-in toolsets, built from the built-ins' definitions; catalog-ops, a new tenant's (its writes). */
export const {
  toolsets: BUILTIN_TOOLSETS,
  catalogOps: CATALOG_OPS_MANIFEST,
  starterSkillOps,
} = builtinToolsets(BUILTIN_TOOLS);

/** The configuration document's kinds, as the mounts declare them (the configuration engine's set). */
export const CONFIG_KINDS = documentKinds(mountedConfigKinds(MOUNTS));
