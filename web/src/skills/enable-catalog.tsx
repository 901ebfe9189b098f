import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, must, type Schemas } from '../api/client';
import { ErrorNote, Notice } from '../ui/feedback';
import { Section } from '../ui/page';
import manifest from './catalog-ops.json';
import { skillsChanged } from './queries';

/**
 * "Enable catalog tools": the built-in catalog tools (docs/mcp.md) become MCP tools once the
 * catalog-ops skill is registered and enabled with all of them. The button registers the manifest
 * (web/src/skills/catalog-ops.json, kept equal to lib/mcp/builtins/catalog-ops.ts by a test), or
 * turns an existing catalog-ops skill back on with every tool; pressed again it changes nothing.
 * When the registered tools are an earlier version's, the same call ("Update catalog tools") sends
 * this one.
 */

type Skill = Schemas['Skill'];
const SLUG = manifest.slug;
const TOOL_NAMES = manifest.tools.map((t) => t.name);

/** True when the tenant's catalog-ops skill is enabled and offers every built-in catalog tool. */
function catalogToolsOn(skills: readonly Skill[] | undefined): boolean {
  const skill = skills?.find((s) => s.slug === SLUG);
  return !!skill?.enabled && TOOL_NAMES.every((name) => skill.tools.some((t) => t.name === name));
}

/** JSON with object keys sorted, so a stored manifest compares equal whatever order it was kept in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * True when the registered catalog-ops tools are this version's: a tenant that registered them
 * before a tool gained an argument (a check's `name`) keeps the old input schemas, and MCP calls
 * with the new argument are refused until the manifest is sent again.
 */
function catalogToolsCurrent(skills: readonly Skill[] | undefined): boolean {
  const skill = skills?.find((s) => s.slug === SLUG);
  return manifest.tools.every((tool) => {
    const stored = skill?.tools.find((t) => t.name === tool.name);
    return !!stored && canonical(stored) === canonical(tool);
  });
}

/** Registers catalog-ops, or (it exists) enables it with every tool; reads the skill first, so it is idempotent. */
async function enableCatalogTools(): Promise<void> {
  const { slug, ...fields } = manifest;
  const current = await api.GET('/v1/skills/{slug}', { params: { path: { slug } } });
  if (current.response.status === 404) {
    const created = await api.POST('/v1/skills', { body: manifest as never });
    // Registered meanwhile (another tab): go on and make sure it is on.
    if (created.response.status !== 409) {
      await must(Promise.resolve(created));
      return;
    }
  } else {
    await must(Promise.resolve(current));
  }
  await must(api.PUT('/v1/skills/{slug}', { params: { path: { slug } }, body: fields as never }));
}

/** The section: the state of the built-in tools, and the button for an admin. */
export function CatalogTools({
  skills,
  isAdmin,
}: {
  skills: readonly Skill[] | undefined;
  isAdmin: boolean;
}) {
  const queryClient = useQueryClient();
  const enable = useMutation({
    mutationFn: enableCatalogTools,
    onSettled: () => skillsChanged(queryClient),
  });
  if (skills === undefined) return null;
  const on = catalogToolsOn(skills);
  const outdated = on && !catalogToolsCurrent(skills);
  return (
    <Section title="Built-in catalog tools">
      {on ? (
        <Notice>
          The built-in catalog tools are on: MCP clients see {TOOL_NAMES.length} tools (
          {TOOL_NAMES.join(', ')}).
        </Notice>
      ) : null}
      {outdated ? (
        <p>
          They were registered by an earlier version of Vigil: their arguments are out of date (for example a
          check's name).{' '}
          {isAdmin ? 'Update them to this version.' : 'An admin of your account can update them.'}
        </p>
      ) : null}
      {on ? null : (
        <p>
          The built-in catalog tools ({TOOL_NAMES.join(', ')}) are off: MCP clients do not see them.{' '}
          {isAdmin ? '' : 'An admin of your account can turn them on.'}
        </p>
      )}
      <ErrorNote
        error={enable.error}
        title={
          enable.error instanceof ApiError && enable.error.code === 'CONFLICT'
            ? 'Another enabled skill already offers one of these tool names: disable it first.'
            : 'The catalog tools were not enabled.'
        }
      />
      {isAdmin && (!on || outdated) ? (
        <div className="row">
          <button
            type="button"
            className="primary"
            disabled={enable.isPending}
            onClick={() => enable.mutate()}
          >
            {outdated
              ? enable.isPending
                ? 'Updating…'
                : 'Update catalog tools'
              : enable.isPending
                ? 'Enabling…'
                : 'Enable catalog tools'}
          </button>
        </div>
      ) : null}
    </Section>
  );
}
