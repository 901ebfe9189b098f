import { entityRefInput } from '../../catalog/entities.ts';
import { publicCheck } from '../../checks/records.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { noInput, optionalString, READS } from '../../platform/mcp-tool.ts';
import { entityWords, someOf, toolResult } from '../../platform/tool-answers.ts';
import { load } from '../../status/board-reads.ts';
import type { CatalogToolDeps } from './deps.ts';

/** list_blueprints: every blueprint of the tenant. */
export const listBlueprints: BuiltinTool<CatalogToolDeps> = {
  name: 'list_blueprints',
  offer: {
    toolset: 'catalog-ops',
    order: 40,
    version: '2.2.0',
    description: 'Every blueprint (entity type) of the catalog.',
    inputSchema: noInput,
  },
  annotations: { title: 'List blueprints', ...READS },
  handler: async (deps, caller) => {
    const blueprints = await deps.blueprints.list(caller.tenantId);
    const names = someOf(
      blueprints.map((bp) => `${bp.name} (${bp.slug})`),
      50,
    );
    return toolResult(`${blueprints.length} blueprints${names ? `: ${names}` : ''}.`, { blueprints });
  },
};

/** list_entities: the entities of every blueprint, or of one. */
export const listEntities: BuiltinTool<CatalogToolDeps> = {
  name: 'list_entities',
  offer: {
    toolset: 'catalog-ops',
    order: 20,
    version: '2.2.0',
    description: 'Entities of the catalog, optionally only those of one blueprint.',
    inputSchema: {
      type: 'object',
      properties: { blueprint_slug: { type: 'string', description: 'Only entities of this blueprint' } },
      additionalProperties: false,
    },
  },
  annotations: { title: 'List entities', ...READS },
  handler: async (deps, caller, args) => {
    const only = optionalString(args, 'blueprint_slug');
    const slugs = only ? [only] : (await deps.blueprints.list(caller.tenantId)).map((bp) => bp.slug);
    const entities = (
      await Promise.all(slugs.map((slug) => deps.entities.list(caller.tenantId, slug)))
    ).flat();
    const scope = only ? ` of blueprint ${only}` : '';
    const names = someOf(entities.map(entityWords), 20);
    return toolResult(`${entities.length} entities${scope}${names ? `: ${names}` : ''}.`, { entities });
  },
};

/** What get_entity reads of a check's last located slot (publicCheck's `last_locations`). */
type LastLocations = readonly { location: string; outcome: string }[] | undefined;

/** A check's name, with each location's part in its last slot when it is located: `"API" (office down, default up)`. */
const checkWords = (c: { name: string; last_locations?: LastLocations }) =>
  c.last_locations?.length
    ? `"${c.name}" (${c.last_locations.map((l) => `${l.location} ${l.outcome}`).join(', ')})`
    : `"${c.name}"`;

/**
 * An entity's checks in words for get_entity: how many, how many down (named) and, when any is,
 * how many degraded (named), so an agent sees which checks make the entity down or degraded; a
 * located check's name carries each location's outcome of its last slot.
 */
export function checksInWords(
  checks: readonly { name: string; state: string; last_locations?: LastLocations }[],
): string {
  const named = (state: string) => {
    const those = checks.filter((c) => c.state === state);
    const names = those.length ? ` (${those.map(checkWords).join(', ')})` : '';
    return `${those.length} ${state}${names}`;
  };
  const degraded = checks.some((c) => c.state === 'degraded') ? `, ${named('degraded')}` : '';
  return `${checks.length} checks, ${named('down')}${degraded}`;
}

/** get_entity: one entity with its state and attached checks. */
export const getEntity: BuiltinTool<CatalogToolDeps> = {
  name: 'get_entity',
  offer: {
    toolset: 'catalog-ops',
    order: 30,
    version: '2.2.0',
    description:
      "One entity with its metadata, current status and attached checks (a check probed from several locations: each location's outcome in its last slot, last_locations).",
    inputSchema: entityRefInput,
  },
  annotations: { title: 'Get entity', ...READS },
  handler: async (deps, caller, args) => {
    const entity = await load(deps, caller.tenantId, args);
    const checks = (await deps.checkService.list(caller.tenantId, { entity_id: entity.id })).map((c) =>
      publicCheck(c, caller),
    );
    const summary = `${entityWords(entity)} is ${entity.state}: ` + `${checksInWords(checks)}.`;
    return toolResult(summary, { entity, checks });
  },
};
