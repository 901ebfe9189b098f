import type { StateChangeEvent } from '../../domain/states.ts';
import type { Table } from '../../store/table.ts';
import { type ActionRecord, listActions } from './action-items.ts';

/**
 * Which checks of a tenant have a state_change action, and for which target states: what the
 * trigger consumer asks before it enqueues a transition's `state_change` job, so a transition no
 * action can match costs no job (its enqueue, its run, its ack and the worker's read). The worker
 * still decides from the check's own index (action-store `listForCheck`); this only says "maybe".
 *
 * Per process, a tenant's actions are read at most once per ACTION_INDEX_CACHE_MS (one consistent
 * query of its at most 50). The action store forgets a tenant when it writes one of its actions,
 * so in the process that wrote it (the local runtime: the API and the change feed share one) a
 * new action counts at once; another process (the cloud's stream function) sees it within the
 * bound, as an API key's tenant is seen within AUTH_CACHE_MS.
 */
export const ACTION_INDEX_CACHE_MS = 5000;

/** A tenant's state_change actions by check: the target states they fire on (null: any). */
type TenantTriggers = Map<string, Set<string | null>>;

interface Entry {
  triggers: TenantTriggers;
  readAtMs: number;
}

function triggersOf(actions: ActionRecord[]): TenantTriggers {
  const triggers: TenantTriggers = new Map();
  for (const action of actions) {
    if (action.trigger_type !== 'state_change' || !action.check_id) continue;
    const states = triggers.get(action.check_id) ?? new Set();
    states.add(action.trigger_to_state);
    triggers.set(action.check_id, states);
  }
  return triggers;
}

function createTriggerIndex(table: Table) {
  const entries = new Map<string, Entry>();
  // Bumped by every forget: a read that began before any action write is not kept after it
  // (writes are rare, so one count for all tenants loses little and has no map to bound).
  let writes = 0;

  const read = async (tenantId: string, nowMs: number): Promise<TenantTriggers> => {
    const hit = entries.get(tenantId);
    if (hit && nowMs >= hit.readAtMs && nowMs - hit.readAtMs < ACTION_INDEX_CACHE_MS) return hit.triggers;
    const before = writes;
    const triggers = triggersOf(await listActions(table, tenantId));
    if (writes === before) {
      if (entries.size >= 10_000) entries.clear();
      entries.set(tenantId, { triggers, readAtMs: nowMs });
    }
    return triggers;
  };

  return {
    /** Whether a state_change action of the event's tenant could fire on it (its check, its to_state). */
    async mayFire(event: StateChangeEvent, nowMs: number): Promise<boolean> {
      const states = (await read(event.tenant_id, nowMs)).get(event.check_id);
      return states !== undefined && (states.has(null) || states.has(event.to_state));
    },

    /** Drops what is known of the tenant's actions: called after each write of one of them. */
    forget(tenantId: string): void {
      entries.delete(tenantId);
      writes += 1;
    },
  };
}

export type TriggerIndex = ReturnType<typeof createTriggerIndex>;

// One index per table: the action store (which forgets) and the trigger consumer (which reads) of
// one process share it without being wired to each other.
const indexes = new WeakMap<Table, TriggerIndex>();

/** The process's trigger index over this table. */
export function triggerIndexOf(table: Table): TriggerIndex {
  let index = indexes.get(table);
  if (!index) {
    index = createTriggerIndex(table);
    indexes.set(table, index);
  }
  return index;
}
