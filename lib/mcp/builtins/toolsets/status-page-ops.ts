import type { CreateSkillBody } from '../../../skills/manifest.ts';
import { PAGE_INCIDENT_TOOL_ENTRIES } from '../page-incidents.ts';

/** The status-page-ops toolset: a status page's written incidents and their updates. */
export const STATUS_PAGE_OPS_MANIFEST = {
  slug: 'status-page-ops',
  name: 'Status page operations',
  description: 'Write incidents on status pages and post their updates.',
  version: '1.1.0',
  enabled: true,
  tools: [...PAGE_INCIDENT_TOOL_ENTRIES],
} satisfies CreateSkillBody;
