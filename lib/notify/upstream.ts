import { z } from 'zod';
import { type EntityState, readEntityById as readEntityStateById } from '../catalog/entity-items.ts';
import { dependenciesOf } from '../catalog/relation-items.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import type { Table } from '../store/table.ts';
import { notifyKeys, notifyTypes, suppressedPk } from './notify-keys.ts';
import { type StateChangeEvent, stateChangeEventSchema } from './records.ts';

/**
 * Dependency-aware suppression (DECISIONS.md "Notifications"): an entity going down while an entity
 * it depends_on (transitively) is already down is held back, with a marker under each down upstream;
 * the upstream's recovery releases the markers, and each held alert is evaluated again.
 */

/** Entities visited at most by one walk: the depends_on graph is acyclic, this bounds a damaged one too. */
const MAX_WALK = 200;

const DOWN_STATES: ReadonlySet<string> = new Set(['down', 'degraded']);

/** True for a state an alert is held back under (and repeats run in). */
export const isDownState = (state: string) => DOWN_STATES.has(state);

/** The entity's state item found by its id (consistent), or undefined when it is gone. */
export async function readEntityById(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<EntityState | undefined> {
  return readEntityStateById(table, tenantId, entityId);
}

/** The entities `entityId` depends on, directly or not, that are down or degraded now (breadth first). */
export async function downUpstreams(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<EntityState[]> {
  const seen = new Set<string>([entityId]);
  const down: EntityState[] = [];
  let frontier = [entityId];
  while (frontier.length > 0 && seen.size < MAX_WALK) {
    const next: string[] = [];
    for (const from of frontier) {
      for (const to of await dependenciesOf(table, tenantId, from)) {
        if (seen.has(to) || seen.size >= MAX_WALK) continue;
        seen.add(to);
        next.push(to);
      }
    }
    const states = await Promise.all(next.map((id) => readEntityById(table, tenantId, id)));
    for (const state of states) if (state && isDownState(state.state)) down.push(state);
    frontier = next;
  }
  return down;
}

const markerSchema = z.object({ event: stateChangeEventSchema, upstream_entity_id: z.string() });

/** A held-back alert: the dependent's event, kept under the upstream it waits for. */
export interface SuppressedMarker {
  event: StateChangeEvent;
  upstreamEntityId: string;
}

/** How long a held-back alert waits for its upstream's recovery before it expires. */
const HELD_BACK_TTL_SECONDS = 30 * 86_400;

/** Writes the markers of an alert held back by `upstreams` (a rewrite is harmless). */
export async function holdBack(
  table: Table,
  event: StateChangeEvent,
  upstreams: EntityState[],
): Promise<void> {
  if (upstreams.length === 0) return;
  await table.transact(
    upstreams.map((up) => ({
      type: 'put' as const,
      item: {
        ...notifyKeys.suppressed(event.tenant_id, up.id, event.transition_id),
        ...stamp(notifyTypes.suppressed),
        tenant_id: event.tenant_id,
        upstream_entity_id: up.id,
        event,
        // A marker only matters while the upstream is down; one whose upstream was deleted meanwhile expires.
        ttl: Math.floor(Date.parse(event.timestamp) / 1000) + HELD_BACK_TTL_SECONDS,
      },
    })),
  );
}

/** The alerts held back while `upstreamEntityId` was down. */
export async function heldBackBy(
  table: Table,
  tenantId: string,
  upstreamEntityId: string,
): Promise<SuppressedMarker[]> {
  const items = await queryAll(
    (cursor) => table.query({ pk: suppressedPk(tenantId, upstreamEntityId), cursor, consistent: true }),
    1000,
  );
  return items.map((item) => {
    const marker = parseItem(markerSchema, item);
    return { event: marker.event, upstreamEntityId: marker.upstream_entity_id };
  });
}

/** Removes one marker once its alert was released. */
export async function release(table: Table, marker: SuppressedMarker): Promise<void> {
  await table.transact([
    {
      type: 'delete',
      key: notifyKeys.suppressed(marker.event.tenant_id, marker.upstreamEntityId, marker.event.transition_id),
    },
  ]);
}
