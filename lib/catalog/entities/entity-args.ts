import * as z from 'zod';
import { issueSentence } from '../../http/requests.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { EntityStore } from './entity-store.ts';

/**
 * What the tool kit itself needs, which every built-in tool of a feature gets (the mounts bind
 * each over it, `services.mcp.kit`, and the feature's own services): the clock, the log of the
 * calls the configuration engine makes for a tool, and the entity store an entity argument
 * resolves through (below).
 */
export interface ToolKitDeps {
  clock: Clock;
  entityStore: Pick<EntityStore, 'getById' | 'get' | 'existing'>;
  logger: Logger;
}

/**
 * How every built-in tool names an entity (issue 75): its id, or the catalog's natural key, its
 * blueprint's slug and its own; one way, never both. One zod piece parses the arguments
 * (optionalEntity, requiredEntity) and is the JSON Schema 2020-12 of the properties each tool's
 * inputSchema shows (entityNaming), so the two cannot drift. The schemas keep no top-level
 * anyOf/oneOf (model APIs refuse them in a tool's input schema): the descriptions say which
 * combination to give, and the resolver refuses the others in words.
 */
// Pure at load (a bundle that loads the catalog's face without a tool drops them): the JSON Schema
// and the key's schema are made at their first use.
const entityRefArgs = /* @__PURE__ */ z.object({
  entity_id: z.string().min(1).max(64).optional(),
  blueprint_slug: z.string().min(1).max(100).optional(),
  entity_slug: z.string().min(1).max(100).optional(),
});

type RefProperties = Record<keyof z.infer<typeof entityRefArgs>, Record<string, unknown>>;
let refProperties: RefProperties | undefined;
const asJsonSchema = (): RefProperties => {
  refProperties ??= (
    z.toJSONSchema(entityRefArgs, { target: 'draft-2020-12' }) as unknown as { properties: RefProperties }
  ).properties;
  return refProperties;
};

/** The three properties of an inputSchema naming an entity either way; `what` starts each description. */
export const entityNaming = (what = 'The entity') => ({
  entity_id: {
    ...asJsonSchema().entity_id,
    description: `${what} (ent_…); or blueprint_slug with entity_slug`,
  },
  blueprint_slug: {
    ...asJsonSchema().blueprint_slug,
    description: `${what}: its blueprint, e.g. service (with entity_slug); or entity_id`,
  },
  entity_slug: {
    ...asJsonSchema().entity_slug,
    description: `${what}: its slug in the blueprint (with blueprint_slug); or entity_id`,
  },
});

/** The input-schema properties of the two ways (for a tool whose schema is written beside it). */
export const entityRefProperties = /* @__PURE__ */ entityNaming();

const ONE_WAY = 'Give entity_id, or blueprint_slug and entity_slug.';

/** Whether the arguments name an entity at all (either way; the resolver says whether well). */
export function namesEntity(args: Record<string, unknown>): boolean {
  return ['entity_id', 'blueprint_slug', 'entity_slug'].some((k) => args[k] !== undefined && args[k] !== '');
}

/**
 * The entity the arguments name in the caller's tenant, or undefined when they name none. Refused
 * in words: entity_id beside the slugs, one slug without the other; an entity that does not exist
 * is not found (another tenant's too, as at the API).
 */
export async function optionalEntity(
  deps: Pick<ToolKitDeps, 'entityStore'>,
  tenantId: string,
  args: Record<string, unknown>,
) {
  const parsed = entityRefArgs.safeParse(
    { entity_id: args.entity_id, blueprint_slug: args.blueprint_slug, entity_slug: args.entity_slug },
    { error: issueSentence },
  );
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new ValidationError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
  }
  const { entity_id: id, blueprint_slug: blueprint, entity_slug: slug } = parsed.data;
  if (id !== undefined && (blueprint !== undefined || slug !== undefined))
    throw ValidationError.field('entity_id', `${ONE_WAY} Not both.`);
  if ((blueprint === undefined) !== (slug === undefined))
    throw ValidationError.field(
      blueprint === undefined ? 'blueprint_slug' : 'entity_slug',
      'Give blueprint_slug and entity_slug together.',
    );
  if (blueprint !== undefined && slug !== undefined) {
    const entity = await deps.entityStore.get(tenantId, blueprint, slug);
    if (!entity) throw new NotFoundError(`entity ${blueprint}/${slug}`);
    return entity;
  }
  if (id === undefined) return undefined;
  const entity = await deps.entityStore.getById(tenantId, id);
  if (!entity) throw new NotFoundError(`entity ${id}`);
  return entity;
}

/** The entity the arguments name (see optionalEntity); naming none is refused too. */
export async function requiredEntity(
  deps: Pick<ToolKitDeps, 'entityStore'>,
  tenantId: string,
  args: Record<string, unknown>,
) {
  const entity = await optionalEntity(deps, tenantId, args);
  if (!entity) throw ValidationError.field('entity_id', ONE_WAY);
  return entity;
}

/** One entity of a list by its natural key (a window's `entities`, beside its `entity_ids`). */
const entityKey = () => entityRefArgs.pick({ blueprint_slug: true, entity_slug: true }).required();

/** The JSON Schema of a list of entities by blueprint and slug, at most `maxItems`. */
export const entityKeysProperty = (description: string, maxItems: number) => {
  const { $schema: _, ...item } = z.toJSONSchema(entityKey(), { target: 'draft-2020-12' });
  return { type: 'array', maxItems, items: item, description };
};

/**
 * The ids of the entities a list names by blueprint and slug (`at`: its argument's name), in the
 * caller's tenant; refused as the API refuses unknown `entity_ids` (400, each at `<at>.<i>`).
 */
export async function entityIdsOfKeys(
  deps: Pick<ToolKitDeps, 'entityStore'>,
  tenantId: string,
  keys: unknown,
  at: string,
): Promise<string[]> {
  if (keys === undefined) return [];
  const parsed = z.array(entityKey()).safeParse(keys, { error: issueSentence });
  if (!parsed.success)
    throw new ValidationError(
      `invalid ${at}`,
      parsed.error.issues.map((i) => ({ path: [at, ...i.path].join('.'), message: i.message })),
    );
  const found = await Promise.all(
    parsed.data.map((k) => deps.entityStore.get(tenantId, k.blueprint_slug, k.entity_slug)),
  );
  const issues = parsed.data.flatMap((k, i) =>
    found[i] ? [] : [{ path: `${at}.${i}`, message: `no entity ${k.blueprint_slug}/${k.entity_slug}` }],
  );
  if (issues.length > 0) throw new ValidationError('unknown entities', issues);
  return found.map((e) => e?.id ?? '');
}

/**
 * Refuses entity ids the tenant lacks, as the window and page services do (400, each at the path
 * `at(i)` gives): what a write tool's references check before the write is confirmed.
 */
export async function knownEntities(
  deps: Pick<ToolKitDeps, 'entityStore'>,
  tenantId: string,
  ids: readonly string[],
  at: (i: number) => string,
): Promise<void> {
  const found = await deps.entityStore.existing(tenantId, ids);
  const issues = ids.flatMap((id, i) => (found.has(id) ? [] : [{ path: at(i), message: `no entity ${id}` }]));
  if (issues.length > 0) throw new ValidationError('unknown entities', issues);
}

/** An inputSchema naming one entity, either way (what optionalEntity and requiredEntity read). */
export const entityRefInput = {
  type: 'object',
  properties: /* @__PURE__ */ entityNaming(),
  additionalProperties: false,
};
