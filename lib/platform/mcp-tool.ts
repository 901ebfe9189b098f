import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Principal } from '../domain/principal.ts';
import { ValidationError } from './errors.ts';

/*
 * The MCP tool contract (issue 76): what a built-in tool is, wherever it is defined. A feature's
 * tools live in its folder (lib/<feature>/mcp-tools.ts; the full-faced folders' in
 * lib/features/tools/), each definition with its toolset entry, and its mount binds them over its
 * services (`bindTools`); lib/mcp builds the toolsets and the tool catalog from them. The contract
 * sits here, below every feature and lib/mcp, so neither imports the other for it; the answers a
 * tool gives are ./tool-answers.ts's.
 */

/**
 * What a built-in does, fixed by its implementation (MCP ToolAnnotations): tools/list shows these
 * whatever a registered manifest claims, and `readOnlyHint` decides whether read-only keys may
 * list and call the tool.
 */
export interface BuiltinAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The annotations of a built-in that only reads the tenant's own data. */
export const READS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/**
 * The annotations of a built-in that writes: `title`, and whether it destroys, repeats harmlessly or
 * reaches outside the tenant's data (each false unless said).
 */
export function writes(
  title: string,
  hints: { destructive?: boolean; idempotent?: boolean; openWorld?: boolean } = {},
): BuiltinAnnotations & { title: string } {
  return {
    title,
    readOnlyHint: false,
    destructiveHint: hints.destructive ?? false,
    idempotentHint: hints.idempotent ?? false,
    openWorldHint: hints.openWorld ?? false,
  };
}

/**
 * One built-in tool, kept together as the MCP SDK's registerTool keeps a tool: its name, its own
 * annotations and its handler (arguments already validated against the registered inputSchema,
 * defaults filled).
 */
export interface BuiltinTool<D = never> {
  name: string;
  annotations: BuiltinAnnotations;
  /** What tools/list shows as the tool's `_meta`: an app tool's view (`ui.resourceUri`, lib/mcp/apps). */
  meta?: Record<string, unknown>;
  handler(deps: D, caller: Principal, args: Record<string, unknown>): Promise<CallToolResult>;
  /**
   * Throws the not-found error of the first object the arguments name that the tenant lacks,
   * before a write is confirmed (what the tool itself reads first; a read tool needs none).
   */
  references?(deps: D, caller: Principal, args: Record<string, unknown>): Promise<void>;
  /** Its entry in the toolset that offers it; none for find_tools, listed always. */
  offer?: ToolOffer;
}

/**
 * A built-in's entry in the toolset that offers it (a built-in skill's manifest: lib/mcp builds
 * the toolsets from the definitions, docs/mcp.md from the toolsets).
 */
interface ToolOffer {
  /** The toolset's slug (`catalog-ops`). */
  toolset: string;
  /** Its place among the toolset's tools, which are listed (tools/list, docs/mcp.md) in this order. */
  order: number;
  /**
   * The toolset's version that offers the entry as written: a toolset's version is its entries'
   * highest, so a new or changed entry raises it, and the stored copies of the toolset are
   * upgraded to it (lib/mcp/builtin-skill-upgrade.ts).
   */
  version: string;
  description: string;
  /** JSON Schema of the arguments (the SDK validates a call against it, defaults filled). */
  inputSchema: Record<string, unknown>;
}

/** A built-in bound to its services, by name: what a feature's mount binds (`bindTools`). */
export interface BoundTool extends Builtin {
  name: string;
}

/**
 * The built-ins a feature's mount brings (`bindTools`): their definitions, read without services
 * (the list of every built-in is the mounts' and MCP's own: lib/features/feature-routes.ts), and
 * their binding over the services the mount is given.
 */
export interface ToolBinding<S> {
  tools: readonly BuiltinTool<never>[];
  bind(services: S): BoundTool[];
}

/** Binds built-ins to what they run on: the kit and their own services, picked from the mount's by `over`. */
export function bindTools<S, D>(
  over: (services: S) => D,
  tools: readonly BuiltinTool<NoInfer<D>>[],
): ToolBinding<S> {
  return {
    tools: tools as readonly BuiltinTool<never>[],
    bind: (services) => {
      const deps = over(services);
      return tools.map((tool) => ({
        name: tool.name,
        annotations: tool.annotations,
        meta: tool.meta,
        run: (caller, args) => tool.handler(deps, caller, args),
        references: (caller, args) => tool.references?.(deps, caller, args) ?? Promise.resolve(),
      }));
    },
  };
}

/** A built-in bound to the app's services, as the tool catalog dispatches it. */
export interface Builtin {
  annotations: BuiltinAnnotations;
  meta?: Record<string, unknown> | undefined;
  run(caller: Principal, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Throws the not-found error of the first object the arguments name that the tenant lacks (its definition's `references`). */
  references(caller: Principal, args: Record<string, unknown>): Promise<void>;
}

/** Reads an optional string argument. */
export function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Reads a string argument the tool needs (a 400-style tool error when a custom inputSchema let it through empty). */
export function requiredString(args: Record<string, unknown>, name: string): string {
  const value = optionalString(args, name);
  if (value === undefined) throw ValidationError.field(name, 'This field is required.');
  return value;
}

/** Reads a positive integer argument, `fallback` when absent, clamped to `max`. */
export function positiveInt(
  args: Record<string, unknown>,
  name: string,
  fallback: number,
  max: number,
): number {
  const value = args[name];
  const n = typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
  return Math.min(n, max);
}

/** The input-schema pieces many tools share: no arguments, a page's cursor and its size. */
export const noInput = { type: 'object', properties: {}, additionalProperties: false };

export const cursor = {
  type: 'string',
  maxLength: 4096,
  description: 'The next_cursor of the previous answer',
};
export const pageLimit = (byDefault: number, maximum: number) => ({
  type: 'integer',
  minimum: 1,
  maximum,
  default: byDefault,
  description: 'At most this many items (fewer when the answer would pass 50 KB)',
});
