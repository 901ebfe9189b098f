import type { UpdateOp, WriteOp } from './table.ts';

/**
 * Folds unconditional updates of one item into one op: their `add`s summed, their `set`s (equal
 * or disjoint) together. A transaction may touch an item once, and several changes of counters
 * (the tenant's status counters, moved by each entity of a batch) add up the same either way.
 * Other ops, and conditional updates, are kept as they are and in order.
 */
export function mergeCounterUpdates(ops: readonly WriteOp[]): WriteOp[] {
  const merged: WriteOp[] = [];
  const byKey = new Map<string, UpdateOp>();
  for (const op of ops) {
    if (op.type !== 'update' || op.condition || op.remove || op.entries) {
      merged.push(op);
      continue;
    }
    const id = `${op.key.pk}\u0000${op.key.sk}`;
    const first = byKey.get(id);
    if (!first) {
      const copy: UpdateOp = {
        ...op,
        ...(op.add ? { add: { ...op.add } } : {}),
        ...(op.set ? { set: { ...op.set } } : {}),
      };
      byKey.set(id, copy);
      merged.push(copy);
      continue;
    }
    for (const [attr, value] of Object.entries(op.add ?? {})) {
      first.add = { ...(first.add ?? {}), [attr]: (first.add?.[attr] ?? 0) + value };
    }
    if (op.set) first.set = { ...(first.set ?? {}), ...op.set };
  }
  return merged;
}
