import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  specTypeSchemas,
  type Tool,
} from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import { UI_EXTENSION } from '../apps/ui.ts';
import type { CallContext, McpCatalog, McpTool } from '../ports.ts';
import { servePrompts } from '../prompts/serve-prompts.ts';
import type { ResourceDeps } from '../resources/reader.ts';
import { RESOURCE_CACHE_HINTS, registerResources } from '../resources/register.ts';
import { type SessionScope, serveSubscriptions } from '../sessions/session-subscriptions.ts';
import { narrowedCatalog, writeConfirmation } from './connection.ts';

/** tools/list pages: small enough for a model's context, large enough that most tenants need one. */
const TOOLS_PAGE_SIZE = 50;

/** The server's name and version in the initialize and server/discover answers. */
const SERVER_INFO = { name: 'vigil', version: '1.0.0' } as const;

/** A tool as MCP lists it (the skill slug and action binding stay on the server). */
function listed(tool: McpTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool._meta ? { _meta: tool._meta } : {}),
  };
}

/** The page offset a cursor names; a cursor that is not ours is a client error (-32602). */
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = /^\d{1,6}$/.test(cursor) ? Number(cursor) : Number.NaN;
  if (!Number.isSafeInteger(offset))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'invalid cursor');
  return offset;
}

/**
 * An MCP server for one caller: tools/list pages the caller's tools (sorted by name, the cursor
 * is the next offset; a connection narrowed to some skills sees theirs) and tools/call dispatches
 * through the catalog, a built-in write confirmed first on 2026-07-28 (connection.ts). Built per request, so both
 * protocol revisions' HTTP exchanges and the legacy relay share it; the SDK answers
 * `initialize` (2025-era) and `server/discover` (2026-07-28) from its info and capabilities.
 */
export function createMcpServer(
  allTools: McpCatalog,
  caller: Principal,
  context: CallContext = {},
  resources?: { deps: ResourceDeps; subscribe: boolean; session?: SessionScope | undefined },
  era: 'modern' | '2025' = 'modern',
): Server {
  const catalog = narrowedCatalog(allTools, context.skills);
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: {},
      prompts: {},
      completions: {},
      // Logging is deprecated by 2026-07-28 (SEP-2577: new servers SHOULD NOT adopt it), so only
      // the 2025-era revisions declare it: the SDK answers their logging/setLevel ({}; -32602 for
      // a level that is none). Vigil sends no log notifications, so a level changes nothing sent.
      ...(era === '2025' ? { logging: {} } : {}),
      extensions: { [UI_EXTENSION]: {} },
    },
    cacheHints: RESOURCE_CACHE_HINTS,
  });
  // The SDK's own setLevel answers a level that is none -32603; with the params schema it is -32602.
  if (era === '2025')
    server.setRequestHandler(
      'logging/setLevel',
      { params: specTypeSchemas.SetLevelRequestParams },
      () => ({}),
    );
  servePrompts(server, catalog.prompts, caller);
  if (resources) registerResources(server, resources.deps, caller, { ...resources, apps: catalog.apps });
  // A 2025-era session keeps subscriptions on its item; its GET stream tells them.
  if (resources?.session) serveSubscriptions(server, caller, resources.session);
  server.setRequestHandler('tools/list', async (request) => {
    const offset = offsetOf(request.params?.cursor);
    const tools = (await catalog.list(caller)).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    const page = tools.slice(offset, offset + TOOLS_PAGE_SIZE).map(listed);
    const next = offset + TOOLS_PAGE_SIZE;
    return { tools: page, ...(next < tools.length ? { nextCursor: String(next) } : {}) };
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const toolOf = async () => (await catalog.list(caller)).find((t) => t.name === name);
    const asked = await writeConfirmation(toolOf, args ?? {}, ctx.mcpReq, context, () =>
      catalog.check(caller, name, args ?? {}),
    );
    if (asked) return asked;
    const result = await catalog.call(caller, name, args ?? {}, context);
    if (result === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool: ${name}`);
    return result;
  });
  return server;
}
