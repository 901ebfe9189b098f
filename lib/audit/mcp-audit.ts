import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Principal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
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

/** The type of a created object by its id's prefix (lib/platform/ids.ts). */
const TYPE_OF_PREFIX: Record<string, string> = {
  mnt: 'maintenance_window',
  chk: 'check',
  ent: 'entity',
  exe: 'execution',
  bp: 'blueprint',
  rel: 'relation',
};

/** The id a tool's answer names first: its own `id`, or that of an object it answers (`{window: {id}}`). */
function createdId(result: CallToolResult): string | undefined {
  const data = result.structuredContent ?? {};
  const candidates = [data, ...Object.values(data)];
  for (const value of candidates) {
    const id =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>).id : undefined;
    if (typeof id === 'string' && /^[a-z]{2,4}_[0-9A-Z]{26}$/.test(id)) return id;
  }
  return undefined;
}

/** What an MCP write tool acted on: the first id-like argument, else the id its answer names, else the tool. */
function targetOf(
  tool: string,
  args: Record<string, unknown>,
  result: CallToolResult,
): { type: string; id: string } {
  for (const name of TARGET_ARGS) {
    const value = args[name];
    if (typeof value === 'string' && value !== '' && value.length <= 200)
      return { type: name.replace(/_(id|slug)$/, ''), id: value };
  }
  const id = createdId(result);
  if (id) {
    const prefix = id.slice(0, id.indexOf('_'));
    return { type: TYPE_OF_PREFIX[prefix] ?? prefix, id };
  }
  return { type: 'mcp_tool', id: tool };
}

/** Records an MCP tool call: who (the caller), which tool, a redacted summary of its arguments. */
export type McpToolAudit = (
  caller: Principal,
  tool: string,
  args: Record<string, unknown>,
  result: CallToolResult,
  /** The client's address, when the transport knows it (Streamable HTTP). */
  sourceIp?: string,
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
  return async (caller, tool, args, result, sourceIp) => {
    if (result.isError) return;
    try {
      const now = deps.clock.now();
      await appendAuditEntry(
        deps.table,
        now,
        {
          tenant_id: caller.tenantId,
          actor: await deps.actorOf(caller),
          via: 'mcp',
          action: `mcp.${tool}`,
          target: targetOf(tool, args, result),
          summary: redactedSummary(args).replace(/^fields: /, 'arguments: '),
          source_ip: sourceIp ?? null,
        },
        await deps.retentionDays(caller.tenantId),
      );
    } catch (err) {
      deps.logger.error('audit entry not written', { tenant_id: caller.tenantId, tool, err });
    }
  };
}
