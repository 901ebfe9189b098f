import {
  acceptedContent,
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequiredResult,
  inputRequired,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { CallContext, McpCatalog, McpTool, ToolCatalog } from '../ports.ts';
import { BUILTIN_SLUG } from '../tool-catalog.ts';

/**
 * What one MCP connection asks of the endpoint beyond its key (docs/mcp.md "Narrowing a
 * connection" and "Confirming writes"), from the URL the client is configured with:
 * - `?skills=check-ops,incident-ops`: only those skills' tools are listed and callable (find_tools
 *   stays, to say what else the tenant's skills offer). The key's own limits still apply.
 * - `?confirm=off`: built-in tools that change state run without the 2026-07-28 confirmation.
 */
export const connectionQuery = {
  skills: z
    .string()
    .max(1_000)
    .regex(/^[a-z0-9][a-z0-9-]{0,63}(,[a-z0-9][a-z0-9-]{0,63}){0,19}$/, {
      message: 'a comma-separated list of at most 20 skill slugs',
    })
    .optional()
    .meta({
      description:
        'Narrows the connection to these skills (comma-separated slugs): only their tools are listed and callable; find_tools stays',
    }),
  confirm: z.enum(['writes', 'off']).optional().meta({
    description:
      'writes (the default): on 2026-07-28, a built-in tool that changes state asks the client to confirm (an input-required result) before it runs; off: it runs at once',
  }),
};

/** The CallContext fields a connection's query sets. */
export function connectionContext(query: {
  skills?: string | undefined;
  confirm?: 'writes' | 'off' | undefined;
}): Pick<CallContext, 'skills' | 'confirmWrites'> {
  return {
    ...(query.skills === undefined ? {} : { skills: new Set(query.skills.split(',')) }),
    ...(query.confirm === 'off' ? { confirmWrites: false } : {}),
  };
}

/**
 * The catalog as a connection narrowed to `skills` sees it: other skills' tools are unknown tools,
 * and the prompts that lead to them are unknown prompts (a prompt is listed when every tool it
 * leads to is, as for the caller's own tools).
 */
export function narrowedCatalog<C extends McpCatalog>(
  catalog: C,
  skills: ReadonlySet<string> | undefined,
): C {
  if (skills === undefined) return catalog;
  // find_tools is listed whatever the skills (tool-catalog.ts): it stays when the connection narrows.
  const kept = (tool: McpTool) => skills.has(tool.skill_slug) || tool.skill_slug === BUILTIN_SLUG;
  const list: ToolCatalog['list'] = async (caller) => (await catalog.list(caller)).filter(kept);
  return {
    ...catalog,
    list,
    prompts: catalog.prompts.over({ list }),
    async call(caller, name, args, context) {
      if (!(await list(caller)).some((t) => t.name === name)) return undefined;
      return catalog.call(caller, name, args, context);
    },
  };
}

/** The key of the confirmation in an input-required result and the retried request's answers. */
const CONFIRM_KEY = 'confirm';
const confirmation = z.object({ confirm: z.boolean().describe('Apply the change') });
/** Characters of the arguments a confirmation message quotes. */
const QUOTED_ARGUMENTS = 400;

/** What the tools/call handler reads of the request: the 2026-07-28 envelope and the retry's answers. */
export interface CallRequestView {
  envelope?: Record<string, unknown> | undefined;
  inputResponses?: Record<string, unknown> | undefined;
}

/** True when the call of a built-in tool changes state: not read-only, and not a dry run by its own arguments. */
function appliesWrite(tool: McpTool, args: Record<string, unknown>): boolean {
  if (tool.action_id !== undefined || tool.annotations?.readOnlyHint === true) return false;
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  if ('apply' in properties && args.apply !== true) return false;
  if ('dry_run' in properties && args.dry_run === true) return false;
  return true;
}

/**
 * The answer to a tools/call that must be confirmed first, or undefined to run it (DECISIONS.md
 * "MCP (wave 5)"): on 2026-07-28, a built-in tool that changes state (update_check with apply,
 * silence_check, resolve_incident, …) answers an input-required result holding one form
 * elicitation ("confirm"); the client asks its user and sends the same call again with the
 * answer, and only an accepted `confirm: true` runs it. A declined or cancelled answer is a tool
 * error that changed nothing. A client that did not declare elicitation cannot be asked: -32021
 * names the capability (or the connection opts out with `?confirm=off`). The 2025-era revisions
 * have no input-required results: their writes run as before, behind the key's write permission.
 * Runbook tools (a skill's action) run as SPEC has them. Arguments the tool's inputSchema refuses,
 * and arguments naming an object the tenant lacks (an entity, check, incident, status page…), are
 * answered with the call's own tool error before anything is asked (check first, then confirm).
 */
export async function writeConfirmation(
  toolOf: () => Promise<McpTool | undefined>,
  args: Record<string, unknown>,
  request: CallRequestView,
  context: CallContext,
  checkArgs: () => Promise<CallToolResult | undefined>,
): Promise<InputRequiredResult | CallToolResult | undefined> {
  if (context.confirmWrites === false || request.envelope?.[PROTOCOL_VERSION_META_KEY] === undefined)
    return undefined;
  // Read only where a confirmation can apply: a 2025-era or opted-out call lists no tools for it.
  const tool = await toolOf();
  if (!tool || !appliesWrite(tool, args)) return undefined;
  const answer = request.inputResponses?.[CONFIRM_KEY];
  if (answer !== undefined) {
    if (acceptedContent(request.inputResponses, CONFIRM_KEY, confirmation)?.confirm === true)
      return undefined;
    return {
      content: [{ type: 'text', text: `${tool.name} was not confirmed: nothing was changed.` }],
      isError: true,
    };
  }
  // Checked first: the user is never asked to confirm a call that would be refused or not find its objects.
  const refused = await checkArgs();
  if (refused) return refused;
  const capabilities = request.envelope[CLIENT_CAPABILITIES_META_KEY] as
    | { elicitation?: unknown }
    | undefined;
  if (capabilities?.elicitation === undefined)
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { elicitation: { form: {} } } },
      `${tool.name} changes state and asks the user to confirm: declare elicitation, or connect with ?confirm=off`,
    );
  const quoted = JSON.stringify(args);
  const shown = quoted.length > QUOTED_ARGUMENTS ? `${quoted.slice(0, QUOTED_ARGUMENTS - 1)}…` : quoted;
  return inputRequired({
    inputRequests: {
      [CONFIRM_KEY]: inputRequired.elicit({
        message: `Vigil: ${tool.annotations?.title ?? tool.name} (${tool.name} ${shown}). Apply this change?`,
        requestedSchema: confirmation,
      }),
    },
  });
}
