import * as z from 'zod';
import { fieldDefinitionSchema } from '../../domain/catalog.ts';
import { STATE_RULES } from '../../domain/states.ts';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import { blueprintSchema } from '../blueprints/blueprint-items.ts';
import { entitySchema } from '../entities/entity-items.ts';
import { relationSchema } from '../relations/relation-items.ts';

/** Response bodies of the catalog routes: the stored records without their internal attributes. */

const times = { created_at: timestampSchema, updated_at: timestampSchema };

/** A blueprint as publicBlueprint returns it. */
export const publicBlueprintSchema = z
  .strictObject({
    ...blueprintSchema.omit({ entity_count: true, version: true }).shape,
    entity_count: z
      .number()
      .int()
      .meta({ description: 'Its entities now (the counter entity creates and deletes keep; no scan)' }),
    id: idSchema('bp'),
    fields: z.array(fieldDefinitionSchema).meta({ description: 'In display order: sort_order, then name' }),
    state_rule: z
      .enum(STATE_RULES)
      .meta({ description: 'The state rule of its entities that have none of their own' }),
    ...times,
  })
  .meta({ id: 'Blueprint' });

/** An entity as publicEntity returns it. */
export const publicEntitySchema = z
  .strictObject({
    ...entitySchema.omit({ version: true }).shape,
    id: idSchema('ent'),
    state_rule: z
      .enum(STATE_RULES)
      .nullable()
      .meta({ description: "The entity's own state rule; null: its blueprint's" }),
    effective_state_rule: z.enum(STATE_RULES).meta({ description: 'The rule its state is aggregated by' }),
    in_maintenance: z.boolean().meta({ description: 'A maintenance window covers the entity now' }),
    ...times,
  })
  .meta({ id: 'Entity' });

/** One end of a relation as answers name it (relation-ends.ts). */
const relationEndSchema = z
  .strictObject({
    name: z.string(),
    slug: z.string(),
    blueprint_slug: z.string(),
    state: z.enum(['up', 'degraded', 'down', 'unknown']),
  })
  .meta({ id: 'RelationEnd' });

/** A relation as answered (relations are immutable: created_at only), its two ends named. */
export const publicRelationSchema = z
  .strictObject({
    ...relationSchema.omit({ to_type: true }).shape,
    id: idSchema('rel'),
    from_entity_id: idSchema('ent'),
    to_entity_id: idSchema('ent'),
    from_entity: relationEndSchema,
    to_entity: relationEndSchema,
    created_at: timestampSchema,
  })
  .meta({ id: 'Relation' });

/** A page of GET /v1/entities. */
export const entityPageSchema = z
  .strictObject({
    entities: z.array(publicEntitySchema),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as cursor for the next page; null at the end' }),
  })
  .meta({ id: 'EntityPage' });
