import * as z from 'zod';
import { MAX_FIELDS_PER_BLUEPRINT, newFieldDefinitionSchema } from '../../domain/catalog.ts';
import { slugSchema } from '../../domain/formats.ts';
import { STATE_RULES } from '../../domain/states.ts';
import { pageQuery } from '../../http/requests.ts';
import { queryInteger } from '../../http/route-schemas.ts';
import { ENTITY_PAGE_MAX } from '../entities/entity-listing.ts';
import { RELATION_TYPES } from '../relations/relation-items.ts';
import { MAX_HOPS, MAX_NEIGHBOURHOOD } from '../relations/relation-service.ts';

/** Request bodies and queries of the catalog routes; unknown body fields are rejected (400). */

const slug = slugSchema();
const name = z.string().regex(/\S/, 'This field is required.').trim().min(1).max(200);
const fieldValues = z.record(z.string(), z.unknown());
/** How an entity's checks make its state (issue 35): `worst` (default) or `all_down` (redundant replicas). */
export const stateRuleSchema = z
  .enum(STATE_RULES)
  .meta({ description: 'worst: down when any check is down; all_down: down only when every check is down' });
/** An entity's own rule: null (or absent on create) inherits its blueprint's. */
const entityStateRule = stateRuleSchema.nullable().meta({ description: "null: the blueprint's state_rule" });

export const createBlueprintBody = z.strictObject({
  slug,
  name,
  description: z.string().max(2000).default(''),
  fields: z.array(newFieldDefinitionSchema).max(MAX_FIELDS_PER_BLUEPRINT).default([]),
  is_default: z.boolean().default(false),
  state_rule: stateRuleSchema.default('worst'),
});

/** POST /v1/blueprints/{slug}/fields: one field definition. */
export const addFieldBody = newFieldDefinitionSchema;

export const createEntityBody = z.strictObject({
  slug,
  name,
  fields: fieldValues.default({}),
  state_rule: entityStateRule.default(null),
});

/** PUT is a JSON merge patch; the slug never changes, and name and fields cannot be removed as a whole. */
export const updateEntityBody = z.strictObject({
  name: name.optional(),
  fields: fieldValues.optional(),
  state_rule: entityStateRule.optional(),
});

export const createRelationBody = z.strictObject({
  from_entity_id: z.string().min(1),
  to_entity_id: z.string().min(1),
  relation_type: z.enum(RELATION_TYPES),
});

export const listRelationsQuery = z.object({
  entity_id: z
    .string()
    .min(1)
    .optional()
    .meta({ description: 'Only relations with this entity at either end' }),
  dependents_of: z
    .string()
    .min(1)
    .optional()
    .meta({
      description: `The depends_on relations into this entity, transitively: its blast radius (at most ${MAX_NEIGHBOURHOOD} entities); entity_id and hops are then not used`,
    }),
  hops: queryInteger(1, MAX_HOPS)
    .optional()
    .meta({
      description: `With entity_id: its neighbourhood, every relation within this many hops of it (1 to ${MAX_HOPS}; default 1)`,
    }),
  blueprint_slug: slugSchema()
    .optional()
    .meta({ description: 'Only relations with an entity of this blueprint at either end' }),
  relation_type: z.enum(RELATION_TYPES).optional().meta({ description: 'Only relations of this type' }),
});

/** GET /v1/entities: a text filter, a blueprint, and a page. */
export const listEntitiesQuery = pageQuery(ENTITY_PAGE_MAX).extend({
  q: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Only entities whose name or slug starts with this text (case-insensitive)' }),
  blueprint_slug: slugSchema().optional().meta({ description: 'Only entities of this blueprint' }),
});
