import { type CreateSkillBody, createSkillBody } from '../skills/manifest.ts';
import { skillCreatedOps } from '../skills/skill-items.ts';
import { newSkillRecord } from '../skills/skill-service.ts';
import type { WriteOp } from '../store/table.ts';

/**
 * The built-in tools, as the rest of the code base sees lib/mcp's part of them: the tools MCP
 * binds itself (OWN_TOOLS: its app views and find_tools), the toolsets built from the built-ins'
 * definitions (toolsetsOf: each definition, in its feature's folder, names its toolset entry) and
 * the skill a new tenant starts with. What a tool is, and `bindTools`, are lib/platform/mcp-tool.ts's;
 * the list of every built-in is the mounts' (lib/features/feature-routes.ts's BUILTIN_TOOLS).
 */

export { FIND_TOOLS_ENTRY } from './builtins/find-tools.ts';
export { OWN_TOOLS } from './builtins/index.ts';
export { toolsetsOf } from './builtins/toolsets/index.ts';

/**
 * The writes that register `manifest` (catalog-ops) for a new tenant, in its creation's
 * transaction (a tenant store option): a new user's first tools/list is not empty. It is a skill
 * like any other, which an admin may disable or delete. The manifest is parsed once a process: it
 * is a constant, and parsing it compiles each tool's inputSchema with a fresh ajv (35 to 450 ms a
 * tenant on the 2-core machine; up to 1.25 s of a first start's CPU, profiled). Each tenant gets a
 * copy.
 */
export function starterSkillOpsOf(manifest: CreateSkillBody) {
  return (tenantId: string, nowMs: number): WriteOp[] => {
    let body = parsed.get(manifest);
    if (!body) {
      body = createSkillBody.parse(manifest);
      parsed.set(manifest, body);
    }
    return skillCreatedOps(newSkillRecord(tenantId, structuredClone(body), nowMs)).ops;
  };
}

/** Each starter manifest as parsed, by the manifest (the apps of one process share it). */
const parsed = new WeakMap<CreateSkillBody, CreateSkillBody>();
