import { createSkillBody } from '../skills/manifest.ts';
import { skillCreatedOps } from '../skills/skill-items.ts';
import { newSkillRecord } from '../skills/skill-service.ts';
import type { WriteOp } from '../store/table.ts';
import { CATALOG_OPS_MANIFEST } from './builtins/toolsets/catalog-ops.ts';

/**
 * The built-in tools, as the rest of the code base sees them: the definitions (BUILTIN_TOOLS), the
 * toolsets that offer them (docs/mcp.md is generated from them), and the skill a new tenant starts with.
 */

export { FIND_TOOLS_ENTRY } from './builtins/find-tools.ts';
export { BUILTIN_TOOLS } from './builtins/index.ts';
export { CATALOG_OPS_MANIFEST } from './builtins/toolsets/catalog-ops.ts';
export { BUILTIN_TOOLSETS } from './builtins/toolsets/index.ts';

/**
 * The writes that register catalog-ops for a new tenant, in its creation's transaction (a tenant
 * store option): a new user's first tools/list is not empty. It is a skill like any other, which an
 * admin may disable or delete.
 */
export function starterSkillOps(tenantId: string, nowMs: number): WriteOp[] {
  return skillCreatedOps(newSkillRecord(tenantId, createSkillBody.parse(CATALOG_OPS_MANIFEST), nowMs)).ops;
}
