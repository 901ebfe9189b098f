import type { AuditService } from '../../audit/audit-service.ts';
import type { BuiltinTool, ToolKitDeps } from '../tool-kit/deps.ts';
import { optionalString, positiveInt, READS } from '../tool-kit/deps.ts';
import { asToolResult, toolError, toolResult } from '../tool-kit/result.ts';

const AUDIT_LOG_LIMITS = { defaultLimit: 50, maxLimit: 200 } as const;

/**
 * get_audit_log: who changed what (GET /v1/audit's service), newest first, filtered by actor,
 * target and time, paged. Admins only, as the route: anyone else gets a tool error saying so.
 */
export const getAuditLog: BuiltinTool<ToolKitDeps & { audit: Pick<AuditService, 'list'> }> = {
  name: 'get_audit_log',
  annotations: { title: 'Audit log', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      if (caller.role !== 'admin') return toolError('FORBIDDEN: the audit log is for admins only');
      const page = await deps.audit.list(caller.tenantId, {
        actor: optionalString(args, 'actor'),
        target: optionalString(args, 'target'),
        since: optionalString(args, 'since'),
        limit: positiveInt(args, 'limit', AUDIT_LOG_LIMITS.defaultLimit, AUDIT_LOG_LIMITS.maxLimit),
        cursor: optionalString(args, 'cursor'),
      });
      // Words, not ids (the data holds those): who by label, what by action and the target's type.
      const words = page.entries
        .slice(0, 5)
        .map(
          (e) =>
            `${e.action} (${e.target.type}) by ${e.actor.label === e.actor.id ? e.actor.type : e.actor.label} at ${e.at}`,
        );
      const more = page.next_cursor ? ' Pass next_cursor as cursor for more.' : '';
      const summary = page.entries.length
        ? `${page.entries.length} entries, newest first: ${words.join('; ')}${page.entries.length > 5 ? '; …' : ''}.${more}`
        : 'No audit entries match.';
      return toolResult(summary, { entries: page.entries, next_cursor: page.next_cursor }, { compact: true });
    }),
};
