import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { optionalString, positiveInt, READS } from '../../platform/mcp-tool.ts';
import { toolResult } from '../../platform/tool-answers.ts';
import type { CreateSkillBody } from '../../skills/manifest.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';

/**
 * find_tools: what tools the tenant could have, so tools/list can stay small. It reads the
 * tenant's registered skills (enabled or not) and the built-in toolsets (lib/mcp/builtins/toolsets)
 * and answers each tool's name, toolset (the skill's slug), first sentence and whether it is
 * enabled (offered by an enabled skill). A read-only key sees only the tools it could call. It is
 * the one built-in listed without a skill naming it (lib/mcp/tool-catalog.ts): with every skill
 * disabled it is still there to say how to enable one.
 */

/** Rows answered at most per call (the limit argument's maximum). */
const MAX_ROWS = 200;
/** Characters of a description kept: its first sentence, cut here. */
const DESCRIPTION_CHARS = 160;

interface ToolRow {
  name: string;
  toolset: string;
  description: string;
  enabled: boolean;
  read_only: boolean;
}

/** A description's first sentence, bounded. */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  const sentence = end === -1 ? text : text.slice(0, end + 1);
  return sentence.length > DESCRIPTION_CHARS ? `${sentence.slice(0, DESCRIPTION_CHARS - 1)}…` : sentence;
}

/** A tool as a registered skill or a toolset holds it (what find_tools reads of it). */
interface ManifestTool {
  name: string;
  description: string;
  action_id?: string | undefined;
  annotations?: { readOnlyHint?: boolean | undefined } | undefined;
}

/** Every tool the tenant's skills and the built-in toolsets offer, registered skills first. */
function rowsOf(
  skills: readonly { slug: string; enabled: boolean; tools: readonly ManifestTool[] }[],
  toolsets: readonly CreateSkillBody[],
): ToolRow[] {
  // What a built-in does is its own (tool-catalog.ts): a manifest's claims do not make it read-only.
  const builtinReadOnly = new Map(
    toolsets.flatMap((t) => t.tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint === true])),
  );
  const row = (tool: ManifestTool, toolset: string, enabled: boolean): ToolRow => ({
    name: tool.name,
    toolset,
    description: firstSentence(tool.description),
    enabled,
    read_only: builtinReadOnly.get(tool.name) ?? (!tool.action_id && tool.annotations?.readOnlyHint === true),
  });
  const registered = new Set(skills.map((s) => s.slug));
  return [
    ...skills.flatMap((s) => s.tools.map((tool) => row(tool, s.slug, s.enabled))),
    ...toolsets
      .filter((t) => !registered.has(t.slug))
      .flatMap((t) => t.tools.map((tool) => row(tool, t.slug, false))),
  ];
}

export const findTools: BuiltinTool<BuiltinDeps> = {
  name: 'find_tools',
  annotations: { title: 'Find tools', ...READS },
  handler: async (deps, caller, args) => {
    const query = optionalString(args, 'query')?.toLowerCase();
    const toolset = optionalString(args, 'toolset');
    const limit = positiveInt(args, 'limit', 50, MAX_ROWS);
    const all = rowsOf(await deps.skills.list(caller.tenantId), deps.toolsets).filter(
      (r) =>
        (!caller.readOnly || r.read_only) &&
        (!toolset || r.toolset === toolset) &&
        (!query || r.name.includes(query) || r.description.toLowerCase().includes(query)),
    );
    const tools = all.slice(0, limit);
    const off = [...new Set(all.filter((r) => !r.enabled).map((r) => r.toolset))];
    const summary =
      `${all.length} tool(s), ${all.filter((r) => r.enabled).length} enabled` +
      (all.length > tools.length ? `; the first ${tools.length} shown` : '') +
      (off.length
        ? `. Not enabled: ${off.join(', ')}; an admin enables a built-in toolset with POST /v1/skills/builtin/{toolset} or on the console's Skills page.`
        : '.');
    return toolResult(summary, { tools, total: all.length }, { compact: true });
  },
};

/** find_tools' listing (it belongs to no toolset: the tool catalog always lists it). */
export const FIND_TOOLS_ENTRY = {
  name: 'find_tools',
  description:
    'What other tools this account can have: the tools of its skills and of the built-in toolsets (catalog-ops, check-ops, incident-ops, status-page-ops, on-call-ops, config-ops), each with its toolset, first sentence and whether it is enabled. Filter by query (name or description) or toolset.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', maxLength: 100, description: 'Part of a tool’s name or description' },
      toolset: { type: 'string', maxLength: 100, description: 'Only this toolset (skill slug)' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_ROWS,
        default: 50,
        description: 'At most this many tools',
      },
    },
    additionalProperties: false,
  },
  annotations: findTools.annotations,
};
