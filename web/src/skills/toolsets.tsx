import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, must, type Schemas } from '../api/client';
import type { paths } from '../api/schema';
import { ErrorNote } from '../ui/feedback';
import { Section } from '../ui/page';
import { skillsChanged } from './queries';
import toolsets from './toolsets.json';

/**
 * "Built-in toolsets": the built-in MCP tools come as six skills (docs/mcp.md "Toolsets"; the file
 * toolsets.json is lib/mcp's manifests in brief, kept equal by a test). Each is on when a skill of
 * its slug is enabled; an admin turns one on, or brings one registered by an earlier version up to
 * date, with one press (POST /v1/skills/builtin/{toolset}); pressed again it changes nothing.
 */

type Skill = Schemas['Skill'];
/** The toolsets the route takes, as the API document lists them (the compiler checks each). */
type ToolsetSlug = paths['/v1/skills/builtin/{toolset}']['post']['parameters']['path']['toolset'];
const SLUGS: readonly ToolsetSlug[] = [
  'catalog-ops',
  'check-ops',
  'incident-ops',
  'status-page-ops',
  'on-call-ops',
  'config-ops',
];
type Toolset = (typeof toolsets)[number];
type State = 'on' | 'outdated' | 'off';

/** On: its skill is enabled with this version's tools; outdated: enabled from another version; else off. */
function stateOf(skills: readonly Skill[], toolset: Toolset): State {
  const skill = skills.find((s) => s.slug === toolset.slug);
  if (!skill?.enabled) return 'off';
  const names = skill.tools.map((t) => t.name);
  const same = skill.version === toolset.version && toolset.tools.every((name) => names.includes(name));
  return same ? 'on' : 'outdated';
}

const WORDS: Record<State, string> = {
  on: 'On: MCP clients see its tools.',
  outdated: 'On, as an earlier version of Vigil registered it: its tools are out of date.',
  off: 'Off: MCP clients do not see its tools.',
};

/** The section: each toolset with its tools, its state, and the button for an admin. */
export function BuiltinToolsets({
  skills,
  isAdmin,
}: {
  skills: readonly Skill[] | undefined;
  isAdmin: boolean;
}) {
  const queryClient = useQueryClient();
  const enable = useMutation({
    mutationFn: (toolset: ToolsetSlug) =>
      must(api.POST('/v1/skills/builtin/{toolset}', { params: { path: { toolset } } })),
    onSettled: () => skillsChanged(queryClient),
  });
  if (skills === undefined) return null;
  return (
    <Section title="Built-in toolsets">
      <p>
        The built-in tools come in toolsets. MCP clients always see <code>find_tools</code>, which lists what
        the toolsets offer. {isAdmin ? '' : 'An admin of your account can turn toolsets on.'}
      </p>
      <ErrorNote
        error={enable.error}
        title={
          enable.error instanceof ApiError && enable.error.code === 'CONFLICT'
            ? 'Another enabled skill already offers one of these tool names: disable it, or update catalog-ops, first.'
            : 'The toolset was not enabled.'
        }
      />
      <ul className="toolsets">
        {toolsets.map((toolset) => {
          const state = stateOf(skills, toolset);
          const pending = enable.isPending && enable.variables === toolset.slug;
          return (
            <li key={toolset.slug} aria-label={toolset.slug}>
              <p>
                <strong>{toolset.name}</strong> (<code>{toolset.slug}</code>): {toolset.description}{' '}
                {WORDS[state]}
              </p>
              <p className="muted">{toolset.tools.join(', ')}</p>
              {isAdmin && state !== 'on' ? (
                <button
                  type="button"
                  className="primary"
                  disabled={enable.isPending}
                  onClick={() => {
                    const slug = SLUGS.find((known) => known === toolset.slug);
                    if (slug) enable.mutate(slug);
                  }}
                >
                  {pending ? 'Enabling…' : `${state === 'outdated' ? 'Update' : 'Enable'} ${toolset.slug}`}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
