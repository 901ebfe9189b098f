import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../domain/principal.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { appendAuditEntry } from './audit-items.ts';
import type { ActorLookup } from './audit-sink.ts';
import { redactedSummary } from './describe-write.ts';

/** Arguments that name what a tool acted on, in the order they are looked for. */
const TARGET_ARGS = [
  'incident_id',
  'check_id',
  'entity_id',
  'action_id',
  'entity',
  'blueprint_slug',
] as const;

/** What an MCP write tool acted on: the first id-like argument, else the tool itself. */
function targetOf(tool: string, args: Record<string, unknown>): { type: string; id: string } {
  for (const name of TARGET_ARGS) {
    const value = args[name];
    if (typeof value === 'string' && value !== '' && value.length <= 200)
      return { type: name.replace(/_(id|slug)$/, ''), id: value };
  }
  return { type: 'mcp_tool', id: tool };
}

/** Records an MCP tool call: who (the caller), which tool, a redacted summary of its arguments. */
export type McpToolAudit = (
  caller: Principal,
  tool: string,
  args: Record<string, unknown>,
  result: CallToolResult,
) => Promise<void>;

/**
 * The audit log's recorder of MCP write tools (lib/mcp/tool-catalog.ts calls it after a call of a
 * tool that is not read-only and did not answer an error): action `mcp.<tool>`, via `mcp`, the
 * actor the caller's credential names (an OAuth client for an OAuth token). A failing write is
 * logged, never the call's failure.
 */
export function createMcpAudit(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  actorOf: ActorLookup;
  retentionDays(tenantId: string): Promise<number>;
}): McpToolAudit {
  return async (caller, tool, args, result) => {
    if (result.isError) return;
    try {
      const now = deps.clock.now();
      await appendAuditEntry(
        deps.table,
        {
          id: newId('aud', now),
          tenant_id: caller.tenantId,
          at: isoTime(now),
          actor: await deps.actorOf(caller),
          via: 'mcp',
          action: `mcp.${tool}`,
          target: targetOf(tool, args),
          summary: redactedSummary(args).replace(/^fields: /, 'arguments: '),
          source_ip: null,
        },
        await deps.retentionDays(caller.tenantId),
      );
    } catch (err) {
      deps.logger.error('audit entry not written', { tenant_id: caller.tenantId, tool, err });
    }
  };
}
