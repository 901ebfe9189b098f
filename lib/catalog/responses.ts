import * as z from 'zod';
import { fieldDefinitionSchema } from '../domain/blueprint-fields.ts';
import { STATE_RULES } from '../domain/entity-state.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import { blueprintSchema } from './blueprint-items.ts';
import { entitySchema } from './entity-items.ts';
import { relationSchema } from './relation-items.ts';

/** Response bodies of the catalog routes: the stored records without their internal attributes. */

const times = { created_at: timestampSchema, updated_at: timestampSchema };

/** A blueprint as publicBlueprint returns it. */
export const publicBlueprintSchema = z
  .strictObject({
    ...blueprintSchema.omit({ entity_count: true, version: true }).shape,
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

/** A relation as publicRelation returns it (relations are immutable: created_at only). */
export const publicRelationSchema = z
  .strictObject({
    ...relationSchema.shape,
    id: idSchema('rel'),
    from_entity_id: idSchema('ent'),
    to_entity_id: idSchema('ent'),
    created_at: timestampSchema,
  })
  .meta({ id: 'Relation' });
