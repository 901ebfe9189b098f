import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
} from '@modelcontextprotocol/server';
import type { Principal } from '../domain/principal.ts';
import type { EnabledTool } from '../skills/skill-store.ts';

/**
 * A tool as MCP clients see it: its definition and the skill it came from (the skills registry's);
 * `_meta` is a built-in's own (an app tool's `ui.resourceUri`, lib/mcp/apps).
 */
export type McpTool = EnabledTool & { _meta?: Record<string, unknown> };

/**
 * The tools of a tenant (lib/mcp/tool-catalog.ts): the tools of its enabled skills with the
 * annotations of what runs them (a built-in's own, whatever the manifest says; a runbook tool never
 * read-only), filtered for the caller (read-only keys list and call only tools whose readOnlyHint
 * is then true), and the dispatch of a call — a built-in implementation, a runbook action, or an
 * isError result saying the tool has no implementation. Arguments are validated against the tool's
 * inputSchema (ajv); a failure is an isError result the model can read. `undefined`: no such tool
 * for this caller (JSON-RPC -32602).
 */
export interface ToolCatalog {
  list(caller: Principal): Promise<McpTool[]>;
  /**
   * The tool error a call with these arguments would answer before running: arguments the inputSchema
   * refuses, or an object they name (entity, check, incident, status page…) the tenant lacks
   * (undefined: they are valid and name what exists, or no such tool).
   */
  check(caller: Principal, name: string, args: Record<string, unknown>): Promise<CallToolResult | undefined>;
  call(
    caller: Principal,
    name: string,
    args: Record<string, unknown>,
    context?: CallContext,
  ): Promise<CallToolResult | undefined>;
}

/**
 * Where a call came from and what its connection asked (lib/mcp/protocol/connection.ts): the
 * client's address for the audit log when the transport knows it, the skills the connection is
 * narrowed to, and whether built-in writes are confirmed first (2026-07-28; default yes).
 */
export interface CallContext {
  sourceIp?: string | undefined;
  skills?: ReadonlySet<string> | undefined;
  confirmWrites?: boolean | undefined;
}

/**
 * The prompts of a caller (lib/mcp/prompts): the built-in ones whose tools the caller has, and one
 * per runbook tool of the tenant's enabled skills the caller may call. `get` validates the
 * arguments and throws the SDK's ProtocolError (-32602) for an unknown prompt or a bad argument.
 */
export interface PromptCatalog {
  list(caller: Principal): Promise<Prompt[]>;
  get(caller: Principal, name: string, args: Record<string, string>): Promise<GetPromptResult>;
  /** `completion/complete`: suggestions for an argument of a prompt the caller has, or of a resource template. */
  complete(caller: Principal, params: CompleteRequestParams): Promise<CompleteResult>;
  /** The same prompts scoped by other tools (a connection narrowed to some skills lists fewer). */
  over(tools: Pick<ToolCatalog, 'list'>): PromptCatalog;
}

/**
 * The MCP Apps views (lib/mcp/apps): the `ui://vigil/...` resources of the app tools the caller
 * has, and their reads (`undefined`: not a resource of this caller).
 */
export interface AppResources {
  list(caller: Principal): Promise<Resource[]>;
  read(caller: Principal, uri: string): Promise<ReadResourceResult | undefined>;
}

/** What /v1/mcp serves a caller: the tools, the prompts and the app views. */
export interface McpCatalog extends ToolCatalog {
  prompts: PromptCatalog;
  apps: AppResources;
}
