import { ulid } from 'ulid';
import { transitionRecordedOp } from '../../lib/checks/items/transition-items.ts';
import type { TransitionRecord } from '../../lib/checks/records.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { MAX_TRANSACTION_OPS, type Table } from '../../lib/store/table.ts';

/**
 * Writes entity transitions of `tenantId` created at the given times straight into the tenant's
 * transition feed (a history too long to make through the API in a test); answers their ids,
 * oldest first.
 */
export async function seedTransitions(table: Table, tenantId: string, timesMs: number[]): Promise<string[]> {
  const transitions: TransitionRecord[] = [...timesMs]
    .sort((a, b) => a - b)
    .map((ms, i) => ({
      // Not the monotonic factory of newId: it never goes back in time, and these may.
      id: `trn_${ulid(ms)}`,
      tenant_id: tenantId,
      kind: 'entity',
      entity_id: 'ent_01J9Z3ZZZZZZZZZZZZZZZZZZZZ',
      entity_name: 'Seeded',
      check_id: 'chk_01J9Z3ZZZZZZZZZZZZZZZZZZZZ',
      from_state: i % 2 === 0 ? 'up' : 'down',
      to_state: i % 2 === 0 ? 'down' : 'up',
      reason: 'seeded',
      created_at: isoTime(ms),
    }));
  for (let i = 0; i < transitions.length; i += MAX_TRANSACTION_OPS)
    await table.transact(
      transitions.slice(i, i + MAX_TRANSACTION_OPS).map((t) => transitionRecordedOp(t, 30)),
    );
  return transitions.map((t) => t.id);
}

/** `count` times, one second apart, ending `endAgoMs` before now. */
export function secondsApart(count: number, endAgoMs: number): number[] {
  const end = Date.now() - endAgoMs;
  return Array.from({ length: count }, (_, i) => end - (count - 1 - i) * 1000);
}
