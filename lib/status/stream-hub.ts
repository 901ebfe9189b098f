import { type TransitionRecord, transitionSchema } from '../checks/records.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import { parseItem } from '../store/items.ts';

/**
 * The local runtime's in-process fan-out of entity transitions to open status streams. The change
 * pump feeds it right after each commit, so a stream hears of a state change without polling.
 */

export type TransitionListener = (transition: TransitionRecord) => void;

/** Open streams subscribe per tenant; the change consumer publishes. */
export function createTransitionHub() {
  const byTenant = new Map<string, Set<TransitionListener>>();
  return {
    /** Hears every entity transition of `tenantId` from now on; returns the unsubscribe. */
    subscribe(tenantId: string, listener: TransitionListener): () => void {
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
    publish(transition: TransitionRecord): void {
      for (const listener of byTenant.get(transition.tenant_id) ?? []) listener(transition);
    },
  };
}

export type TransitionHub = ReturnType<typeof createTransitionHub>;

/** The change consumer that hands each newly written entity transition to the hub. */
export function createTransitionPublisher(hub: TransitionHub): ChangeConsumer {
  return async (changes) => {
    if (!hub.listening) return;
    for (const change of changes) {
      const item = change.newImage;
      if (change.eventName !== 'INSERT' || item?.entity !== 'transition' || item.kind !== 'entity') continue;
      hub.publish(parseItem(transitionSchema, item));
    }
  };
}
