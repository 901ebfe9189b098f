import * as z from 'zod';
import { type StateChangeEvent, stateChangeEventSchema } from '../../domain/states.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of `suppressed_alert`: an alert of a dependent held back while an upstream entity is down
 * (DECISIONS.md "Notifications"), one marker per down upstream under `SUPP#<tnt>#<upstream>`; the
 * upstream's recovery reads and removes them.
 */

/** How long a held-back alert waits for its upstream's recovery before it expires. */
const HELD_BACK_TTL_SECONDS = 30 * 86_400;

const markerSchema = z.object({
  tenant_id: z.string(),
  upstream_entity_id: z.string(),
  event: stateChangeEventSchema,
});
type MarkerRecord = z.infer<typeof markerSchema>;

const suppressedPk = (tenantId: string, upstreamEntityId: string) => `SUPP#${tenantId}#${upstreamEntityId}`;

const suppressed = defineItem({
  type: itemType('suppressed_alert'),
  schema: markerSchema,
  key: (k: { tenant_id: string; upstream_entity_id: string; transition_id: string }) => ({
    pk: suppressedPk(k.tenant_id, k.upstream_entity_id),
    sk: k.transition_id,
  }),
  keyOf: (r: MarkerRecord) => ({
    tenant_id: r.tenant_id,
    upstream_entity_id: r.upstream_entity_id,
    transition_id: r.event.transition_id,
  }),
  // A marker only matters while the upstream is down; one whose upstream was deleted meanwhile expires.
  ttl: (r) => Math.floor(Date.parse(r.event.timestamp) / 1000) + HELD_BACK_TTL_SECONDS,
  docKey: { tenant_id: '<tnt>', upstream_entity_id: '<ent_id>', transition_id: '<trn_id>' },
});

/** A held-back alert: the dependent's event, kept under the upstream it waits for. */
export interface SuppressedMarker {
  event: StateChangeEvent;
  upstreamEntityId: string;
}

/** The puts holding `event` back under each of `upstreamEntityIds` (a rewrite is harmless). */
export function alertHeldBackOps(event: StateChangeEvent, upstreamEntityIds: string[]): WriteOp[] {
  return upstreamEntityIds.map((id) =>
    suppressed.put({ tenant_id: event.tenant_id, upstream_entity_id: id, event }),
  );
}

/** The alerts held back while `upstreamEntityId` was down (consistent, at most 1,000). */
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
    const marker = suppressed.parse(item);
    return { event: marker.event, upstreamEntityId: marker.upstream_entity_id };
  });
}

/** The delete of one marker once its alert was released. */
export function heldBackReleasedOp(marker: SuppressedMarker): WriteOp {
  return suppressed.delete({
    tenant_id: marker.event.tenant_id,
    upstream_entity_id: marker.upstreamEntityId,
    transition_id: marker.event.transition_id,
  });
}

/** True when `event`'s alert is held back under one of `upstreamEntityIds` now (consistent reads). */
export async function isHeldBack(
  table: Table,
  event: StateChangeEvent,
  upstreamEntityIds: string[],
): Promise<boolean> {
  const markers = await Promise.all(
    upstreamEntityIds.map((id) =>
      suppressed.get(
        table,
        { tenant_id: event.tenant_id, upstream_entity_id: id, transition_id: event.transition_id },
        { consistent: true },
      ),
    ),
  );
  return markers.some((marker) => marker !== undefined);
}
