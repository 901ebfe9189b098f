import * as z from 'zod';
import type { StateChangeEvent } from '../domain/state-change-event.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { PageSource } from '../store/paging.ts';
import { checkPartition } from '../store/partitions.ts';
import type { Item, Table, WriteOp } from '../store/table.ts';

/**
 * Owner of the `transition` items. A check's transitions (`kind: check`) live in its partition
 * (`TRN#<trn_id>`, purged with it); entity transitions, the tenant's incident feed, live in the
 * tenant's transition partition (`TRN#<tnt>`, sort key the id) so they outlive a deleted check.
 * Both expire with results.
 */

export const transitionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  kind: z.enum(['check', 'entity']),
  entity_id: z.string(),
  entity_name: z.string(),
  /** The entity's address (absent on transitions recorded before it was kept). */
  blueprint_slug: z.string().optional(),
  entity_slug: z.string().optional(),
  check_id: z.string(),
  from_state: z.enum(['unknown', 'up', 'down', 'degraded']),
  to_state: z.enum(['unknown', 'up', 'down', 'degraded']),
  reason: z.string(),
  created_at: z.string(),
});
export type TransitionRecord = z.infer<typeof transitionSchema>;

const TYPE = itemType('transition');

/** Transitions expire with results, `retentionDays` after they happened. */
const expiry = (t: TransitionRecord, retentionDays: number) =>
  Math.floor(Date.parse(t.created_at) / 1000) + retentionDays * 86_400;
const tenantTransitionsPk = (tenantId: string) => `TRN#${tenantId}`;

const checkTransition = defineItem({
  type: TYPE,
  schema: transitionSchema,
  key: (k: { check_id: string; id: string }) => ({ pk: checkPartition(k.check_id), sk: `TRN#${k.id}` }),
  ttl: (r, c: { retentionDays: number }) => expiry(r, c.retentionDays),
  docKey: { check_id: '<chk_id>', id: '<trn_id>' },
});

const entityTransition = defineItem({
  type: TYPE,
  schema: transitionSchema,
  key: (k: { tenant_id: string; id: string }) => ({ pk: tenantTransitionsPk(k.tenant_id), sk: k.id }),
  ttl: (r, c: { retentionDays: number }) => expiry(r, c.retentionDays),
  docKey: { tenant_id: '<tnt>', id: '<trn_id>' },
});

/** The state-change event of SPEC.md "Events" for an entity transition: what streams, webhooks, NATS and the bus carry. */
export function stateChangeEvent(t: TransitionRecord): StateChangeEvent {
  return {
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    check_id: t.check_id,
    tenant_id: t.tenant_id,
    from_state: t.from_state,
    to_state: t.to_state,
    transition_id: t.id,
    timestamp: t.created_at,
  };
}

/** The `entity` of transition items, for change-feed filters. */
export const TRANSITION_ENTITY = TYPE.entity;

/** The put of a transition, expiring with results after `retentionDays`. */
export function transitionRecordedOp(transition: TransitionRecord, retentionDays: number): WriteOp {
  return transition.kind === 'entity'
    ? entityTransition.put(transition, undefined, { retentionDays })
    : checkTransition.put(transition, undefined, { retentionDays });
}

/** A transition item read through one of the pages below, or from the change feed. */
export function parseTransition(item: Item): TransitionRecord {
  return transitionSchema.parse(item);
}

/** The paged list of a check's own transitions, newest first (for sealed cursors). */
export function checkTransitionsSource(checkId: string): PageSource {
  return { pk: checkPartition(checkId), prefix: 'TRN#' };
}

/** The paged list of the tenant's entity transitions, newest first (for sealed cursors). */
export function tenantTransitionsSource(tenantId: string): PageSource {
  return { pk: tenantTransitionsPk(tenantId), prefix: 'trn_' };
}

/**
 * One page of the tenant's entity transitions whose id (sort key) is in `range`, strongly
 * consistent; `cursor` continues it.
 */
export async function tenantTransitionItems(
  table: Table,
  tenantId: string,
  input: {
    range: { after: string } | { from: string; to: string };
    direction: 'asc' | 'desc';
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ items: Item[]; cursor: string | undefined }> {
  const { range } = input;
  const page = await table.query({
    pk: tenantTransitionsPk(tenantId),
    sk:
      'after' in range ? { op: '>', value: range.after } : { op: 'between', low: range.from, high: range.to },
    direction: input.direction,
    consistent: true,
    limit: input.limit,
    ...(input.cursor ? { cursor: input.cursor } : {}),
  });
  return { items: page.items, cursor: page.cursor };
}

/**
 * The state-change event (SPEC.md "Events") of a stored entity transition (a change-feed image), or
 * undefined for any other item: what the notify and action consumers turn into jobs.
 */
export function entityTransitionEvent(item: Item): StateChangeEvent | undefined {
  if (item.entity !== TRANSITION_ENTITY) return undefined;
  const parsed = transitionSchema.safeParse(item);
  if (!parsed.success || parsed.data.kind !== 'entity') return undefined;
  return stateChangeEvent(parsed.data);
}
