import type { ToolKitDeps } from '../catalog/entities.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { cursor, optionalString, pageLimit, positiveInt, READS } from '../platform/mcp-tool.ts';
import { asToolResult, toolError, toolResult } from '../platform/tool-answers.ts';
import type { AuditService } from './audit-service.ts';

/** get_audit_log: filters and page (GET /v1/audit's). */
const auditLogInput = {
  type: 'object',
  properties: {
    actor: {
      type: 'string',
      maxLength: 200,
      description: "Only this actor's entries (a user, key, location or OAuth client id)",
    },
    target: { type: 'string', maxLength: 300, description: 'Only entries about this target: type:id or id' },
    since: { type: 'string', maxLength: 40, description: 'Only entries at or after this time (ISO 8601)' },
    limit: pageLimit(50, 200),
    cursor,
  },
  additionalProperties: false,
};

const AUDIT_LOG_LIMITS = { defaultLimit: 50, maxLimit: 200 } as const;

/**
 * get_audit_log: who changed what (GET /v1/audit's service), newest first, filtered by actor,
 * target and time, paged. Admins only, as the route: anyone else gets a tool error saying so.
 */
export const getAuditLog: BuiltinTool<ToolKitDeps & { audit: Pick<AuditService, 'list'> }> = {
  name: 'get_audit_log',
  offer: {
    toolset: 'config-ops',
    order: 30,
    version: '1.0.0',
    description:
      'Who changed what (admins only): audit entries newest first, each with actor, via (api, console, mcp, cli, agent), action, target, a redacted summary, source address and time. Filters: actor (an id), target (type:id or id), since (ISO time); next_cursor continues.',
    inputSchema: auditLogInput,
  },
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
