import { type TransitionRecord, transitionSchema } from '../checks/records.ts';
import { TRANSITION_ENTITY } from '../checks/results.ts';
import { INCIDENT_ENTITY, type IncidentChange, incidentChangeOf } from '../incidents/incident-items.ts';

import type { ChangeConsumer, StreamedEntity } from '../store/change-feed.ts';
import { parseItem } from '../store/items.ts';

/**
 * The local runtime's in-process fan-out of live changes to open streams. The change pump feeds it
 * right after each commit, so a stream hears of a change without polling.
 */

/**
 * What the live streams follow: an entity transition (the status stream's `state_change`), or a
 * change of an incident no transition tells (acknowledged, a note, resolved by hand or by its
 * entity's deletion; lib/incidents/incident-items.ts), which MCP's subscriptions tell.
 */
export type LiveChange =
  | { kind: 'transition'; transition: TransitionRecord }
  | { kind: 'incident'; incident: IncidentChange };

export type LiveListener = (change: LiveChange) => void;

/**
 * The item types whose changes the hub is fed: where streams follow by push (the local runtime),
 * its outbox keeps these besides lib/events' STREAM_ENTITIES. An incident only when it gets a new
 * change entry (gsi2): its other writes (opened, alerted, resolved on up) tell the hub nothing,
 * and an outbox record each cost every state change a write and a pass through every consumer.
 * The cloud's stream function never needs incidents: its streams poll the table.
 */
export const LIVE_STREAM_ENTITIES: readonly StreamedEntity[] = [
  TRANSITION_ENTITY,
  { entity: INCIDENT_ENTITY, gsi2Moves: true },
];

const tenantOf = (change: LiveChange) =>
  change.kind === 'transition' ? change.transition.tenant_id : change.incident.tenant_id;

/** Open streams subscribe per tenant; the change consumer publishes. */
export function createLiveHub() {
  const byTenant = new Map<string, Set<LiveListener>>();
  return {
    /** Hears every live change of `tenantId` from now on; returns the unsubscribe. */
    subscribe(tenantId: string, listener: LiveListener): () => void {
      let listeners = byTenant.get(tenantId);
      if (!listeners) {
        listeners = new Set();
        byTenant.set(tenantId, listeners);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && byTenant.get(tenantId) === listeners) byTenant.delete(tenantId);
      };
    },
    /** True while any stream listens (the consumer parses nothing otherwise). */
    get listening(): boolean {
      return byTenant.size > 0;
    },
    publish(change: LiveChange): void {
      for (const listener of byTenant.get(tenantOf(change)) ?? []) listener(change);
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;

/** The change consumer that hands each new entity transition and each told incident change to the hub. */
export function createLivePublisher(hub: LiveHub): ChangeConsumer {
  return async (changes) => {
    if (!hub.listening) return;
    for (const change of changes) {
      const item = change.newImage;
      if (change.eventName === 'INSERT' && item?.entity === 'transition' && item.kind === 'entity')
        hub.publish({ kind: 'transition', transition: parseItem(transitionSchema, item) });
      const incident = incidentChangeOf(change);
      if (incident) hub.publish({ kind: 'incident', incident });
    }
  };
}
