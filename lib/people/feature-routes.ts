import { createAuditService } from '../audit/audit-service.ts';
import { getAuditLog } from '../audit/mcp-tools.ts';
import type { ToolKitDeps } from '../catalog/entities.ts';
import type { Route } from '../http/types.ts';
import { type Composed, defineMount } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';

/** People's routes (sign-in, keys, users, SSO, OAuth), as ./compose.ts builds them, and get_audit_log over the audit log. */
export const peopleMount = defineMount({
  name: 'people',
  routes: ({ people }: Composed<'people', Route>) => people.routes,
  tools: bindTools(
    ({
      mcp,
      table,
      clock,
      cursors,
    }: Parameters<typeof createAuditService>[0] & { mcp: { kit: ToolKitDeps } }) => ({
      ...mcp.kit,
      audit: createAuditService({ table, clock, cursors }),
    }),
    [getAuditLog],
  ),
});
