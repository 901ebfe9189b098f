import * as z from 'zod';
import { STATE_RULES } from '../states/entity-state.ts';
import { fieldValueSchema } from './field-values.ts';

/**
 * The attributes of an entity's stored items (lib/catalog/entities/entity-items.ts is their owner, which
 * defines the items with these schemas): the entity item, its checks engine's part and its id
 * pointer.
 */

const checkStateValue = z.enum(['unknown', 'up', 'down', 'degraded']);

/** The catalog's view of an entity item (what the API shows, plus its optimistic-lock `version`). */
export const entitySchema = z.object({
  id: z.string(),
  blueprint_slug: z.string(),
  slug: z.string(),
  name: z.string(),
  fields: z.record(z.string(), fieldValueSchema),
  state: z.enum(['up', 'degraded', 'down', 'unknown']),
  /** The entity's own state rule; absent or null: its blueprint's (issue 35). */
  state_rule: z.enum(STATE_RULES).nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number().int(),
});
export type EntityRecord = z.infer<typeof entitySchema>;

/** The checks engine's attributes of the entity item. */
export const entityChecksPart = {
  /** All its checks: the check_limit_per_entity counter. */
  check_count: z.number().int().optional(),
  /** `{<chk_id>: unknown|up|down|degraded}` of its enabled checks: the aggregate `state` is computed from them. */
  check_states: z.record(z.string(), checkStateValue).optional(),
  /** The entity transition that set `state` (absent before the first one): the notifier tells a still-current alert by it. */
  last_transition_id: z.string().optional(),
  /** The rule `state` is aggregated by: its own `state_rule`, else its blueprint's; absent: `worst`. */
  applied_state_rule: z.enum(STATE_RULES).optional(),
};

/** The state part of an entity item: what the checks engine, the notifier and the status board read. */
export const entityStateSchema = entitySchema
  .pick({
    id: true,
    name: true,
    blueprint_slug: true,
    slug: true,
    state: true,
    state_rule: true,
    version: true,
  })
  .extend(entityChecksPart);
export type EntityState = z.infer<typeof entityStateSchema>;

/**
 * The id pointer of an entity: where its item is, and its name (search_entities' name index is on
 * the pointer). `name` is absent on pointers written before the search indexes, until the backfill.
 */
export const entityPointerSchema = z.object({
  id: z.string(),
  blueprint_slug: z.string(),
  slug: z.string(),
  name: z.string().optional(),
});
export type EntityPointer = z.infer<typeof entityPointerSchema>;
