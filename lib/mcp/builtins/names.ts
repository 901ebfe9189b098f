/**
 * How tool texts name things (docs/mcp.md "Names in tool answers"): an entity by its name and
 * address, `DB (service/db)`, since the entity tools take blueprint_slug and entity_slug; a check,
 * a maintenance window, an action or a channel by its name in quotes. Ids never appear in the
 * summary line: they are in the data that follows it (and in structuredContent) for follow-up calls.
 */

/** `Name (blueprint/slug)`. */
export const entityWords = (e: { name: string; blueprint_slug: string; slug: string }) =>
  `${e.name} (${e.blueprint_slug}/${e.slug})`;

/** `Name (blueprint/slug, state)`. */
export const entityWithState = (e: { name: string; blueprint_slug: string; slug: string; state: string }) =>
  `${e.name} (${e.blueprint_slug}/${e.slug}, ${e.state})`;

/** At most `max` of `names`, joined, and how many more there are. */
export function someOf(names: readonly string[], max = 10): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}
