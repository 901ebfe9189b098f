import type { BuiltinTool } from '../../../platform/mcp-tool.ts';
import type { CreateSkillBody } from '../../../skills/manifest.ts';

/**
 * The built-in toolsets (DECISIONS.md "MCP (wave 5)"): one skill manifest each, registered under
 * its slug. A toolset here is its name and what it is for; its tools are the built-ins whose
 * definitions offer themselves in it (`offer`, each in its feature's folder), in their `order`,
 * and its version is their entries' highest. Their tool names do not overlap, since a tool name
 * belongs to at most one enabled skill of a tenant, so every toolset can be on at once; every
 * built-in but find_tools is in one (test/mcp/toolsets.test.ts).
 */
const TOOLSETS = [
  {
    slug: 'catalog-ops',
    name: 'Catalog operations',
    description: 'Read the service catalog and its health, explain states and dependencies, add checks.',
  },
  {
    slug: 'check-ops',
    name: 'Check operations',
    description:
      'Run a check now, change or delete checks (dry run first), silence a check, follow heartbeats, their pings and runs.',
  },
  {
    slug: 'incident-ops',
    name: 'Incident operations',
    description:
      'Acknowledge, resolve and annotate incidents; list, acknowledge and resolve outside alerts; list, create and start maintenance windows.',
  },
  {
    slug: 'status-page-ops',
    name: 'Status page operations',
    description: 'Write incidents on status pages and post their updates.',
  },
  {
    slug: 'on-call-ops',
    name: 'On-call operations',
    description: 'Who is on call for an entity or team, and why someone would (not) be paged.',
  },
  {
    slug: 'config-ops',
    name: 'Configuration operations',
    description: 'Plan and apply configuration documents, read who changed what, follow action runs.',
  },
] as const;

/** `a` before `b` as versions (`1.10.0` after `1.9.0`). */
const versionBefore = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  const i = (x ?? []).findIndex((part, n) => part !== y?.[n]);
  return i >= 0 && (x?.[i] ?? 0) < (y?.[i] ?? 0);
};

/**
 * The built-in toolsets' manifests, built from the built-ins' definitions: each toolset's tools in
 * their order, its version their highest. Refuses a tool offered in a toolset that does not exist,
 * two tools at one place of a toolset, and a toolset no tool is offered in.
 */
export function toolsetsOf(tools: readonly BuiltinTool<never>[]): CreateSkillBody[] {
  const slugs = new Set<string>(TOOLSETS.map((toolset) => toolset.slug));
  for (const { name, offer } of tools)
    if (offer && !slugs.has(offer.toolset))
      throw new Error(`the built-in tool ${name} is offered in ${offer.toolset}, which is no toolset`);
  return TOOLSETS.map((toolset) => {
    const offered = tools
      .flatMap(({ name, annotations, offer }) =>
        offer?.toolset === toolset.slug ? [{ name, annotations, offer }] : [],
      )
      .sort((a, b) => a.offer.order - b.offer.order);
    if (offered.length === 0) throw new Error(`no built-in tool is offered in the toolset ${toolset.slug}`);
    offered.forEach((tool, i) => {
      if (tool.offer.order === offered[i - 1]?.offer.order)
        throw new Error(`${offered[i - 1]?.name} and ${tool.name} are at one place of ${toolset.slug}`);
    });
    const version = offered
      .map((tool) => tool.offer.version)
      .reduce((high, v) => (versionBefore(high, v) ? v : high));
    return {
      ...toolset,
      version,
      enabled: true,
      tools: offered.map(({ name, annotations, offer }) => ({
        name,
        description: offer.description,
        inputSchema: offer.inputSchema,
        annotations,
      })),
    };
  });
}
