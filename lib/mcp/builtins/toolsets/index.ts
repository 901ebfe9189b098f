import type { CreateSkillBody } from '../../../skills/manifest.ts';
import { CATALOG_OPS_MANIFEST } from './catalog-ops.ts';
import { CHECK_OPS_MANIFEST } from './check-ops.ts';
import { CONFIG_OPS_MANIFEST } from './config-ops.ts';
import { INCIDENT_OPS_MANIFEST } from './incident-ops.ts';
import { ON_CALL_OPS_MANIFEST } from './on-call-ops.ts';
import { STATUS_PAGE_OPS_MANIFEST } from './status-page-ops.ts';

/**
 * The built-in toolsets (DECISIONS.md "MCP (wave 5)"): one skill manifest each, registered under
 * its slug. Their tool names do not overlap, since a tool name belongs to at most one enabled skill
 * of a tenant, so every toolset can be on at once; every built-in but find_tools is in one
 * (test/mcp/toolsets.test.ts).
 */
export const BUILTIN_TOOLSETS: readonly CreateSkillBody[] = [
  CATALOG_OPS_MANIFEST,
  CHECK_OPS_MANIFEST,
  INCIDENT_OPS_MANIFEST,
  STATUS_PAGE_OPS_MANIFEST,
  ON_CALL_OPS_MANIFEST,
  CONFIG_OPS_MANIFEST,
];
