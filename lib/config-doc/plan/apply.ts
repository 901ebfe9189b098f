import { AppError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  type AnyConfigKind,
  type Api,
  type AppliedChange,
  ConfigApplyError,
  type DocKey,
  keysInOrder,
  type PlannedChange,
} from '../kind.ts';
import { firstEnvReference, keepingStoredSecrets } from '../secrets.ts';
import type { ConfigDocument, KindSet } from './document.ts';
import type { TenantState } from './tenant-state.ts';

/** Objects of one kind in flight at once: enough to overlap the store's round trips, few enough to stay polite. */
const APPLY_BATCH = 16;

export interface ApplyRun {
  kinds: KindSet;
  api: Api;
  doc: ConfigDocument;
  state: TenantState;
  changes: PlannedChange[];
  onProgress?: ((change: AppliedChange) => void) | undefined;
  logger: Logger;
  batch?: number;
}

const refKey = (key: DocKey, identity: string) => `${key}\u0000${identity}`;

/** An object the engine itself refuses to apply (its reason is shown as it is). */
class RefusedObject extends Error {}

/** What a failed object says in the results: the API's own error, never an internal one's text. */
function failureText(err: unknown, logger: Logger): string {
  if (
    err instanceof ConfigApplyError ||
    err instanceof RefusedObject ||
    (err instanceof AppError && err.status < 500)
  )
    return err.message;
  logger.error('configuration object failed', { err });
  return 'an internal error stopped this object (logged with the request id)';
}

/** Runs `work` over `items`, at most `limit` at a time, in order of start. */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The changes in an order whose neighbours have different parents (an object's first reference: a
 * check's entity), so the objects in flight together rarely write the same parent's items (an
 * entity's check count and cell), whose conditional writes would conflict and be retried. Measured
 * in the cloud harness, 300 checks of 15 entities, 16 in flight: 18.3 s in document order, 9.8 s
 * one at a time, 7.6 s spread (docs/performance.md).
 */
function spreadByParent(
  changes: PlannedChange[],
  parentOf: (change: PlannedChange) => string,
): PlannedChange[] {
  const queues = new Map<string, PlannedChange[]>();
  for (const change of changes) {
    const parent = parentOf(change);
    const queue = queues.get(parent);
    if (queue) queue.push(change);
    else queues.set(parent, [change]);
  }
  const spread: PlannedChange[] = [];
  const pending = [...queues.values()];
  for (let round = 0; spread.length < changes.length; round += 1)
    for (const queue of pending) {
      const change = queue[round];
      if (change) spread.push(change);
    }
  return spread;
}

/**
 * Applies planned changes object by object (each kind makes its own object atomic): kind after
 * kind in document order with the deletes after them in reverse order, each kind's objects in
 * bounded batches and finished before the next kind starts (a check's entity exists before the
 * check). A failed object is reported and the objects referring to it fail too; the rest go on.
 */
export async function runApply(run: ApplyRun): Promise<AppliedChange[]> {
  const { kinds, api, doc, state } = run;
  const failed = new Set<string>();
  const results: AppliedChange[] = [];
  const docsOf = new Map<DocKey, Map<string, Record<string, unknown>>>();
  for (const key of keysInOrder(kinds)) {
    const kind = kinds[key];
    if (kind)
      docsOf.set(key, new Map((doc.lists[key] ?? []).map((object) => [kind.identity(object), object])));
  }

  const applyOne = async (kind: AnyConfigKind, change: PlannedChange): Promise<void> => {
    const object = docsOf.get(change.kind)?.get(change.id);
    const current = state.current.get(change.kind)?.get(change.id);
    if (change.op !== 'delete' && object) {
      const broken = kind.references(object).find((ref) => failed.has(refKey(ref.key, ref.identity)));
      if (broken) throw new RefusedObject(`depends on ${broken.key} ${broken.identity}, which failed`);
    }
    if (change.op === 'create' && object) {
      const unset = firstEnvReference(object);
      if (unset) throw new RefusedObject(`${unset.path} refers to \${${unset.name}}, which is not set`);
      state.names.set(change.kind, change.id, await kind.create(api, object, state.names));
    } else if (change.op === 'update' && object && current) {
      await kind.update(api, current, keepingStoredSecrets(object), state.names);
    } else if (change.op === 'delete' && current) {
      await kind.remove(api, current);
      state.names.remove(change.kind, change.id);
    }
  };

  const settle = async (kind: AnyConfigKind, change: PlannedChange) => {
    let result: AppliedChange;
    try {
      await applyOne(kind, change);
      result = { ...change, status: 'applied' };
    } catch (err) {
      failed.add(refKey(change.kind, change.id));
      result = { ...change, status: 'failed', error: failureText(err, run.logger) };
    }
    results.push(result);
    run.onProgress?.(result);
  };

  // Consecutive changes of one kind and one direction form a group; groups run one after another.
  const groups: { kind: AnyConfigKind; changes: PlannedChange[] }[] = [];
  for (const change of run.changes) {
    const kind = kinds[change.kind];
    if (!kind) continue;
    const last = groups.at(-1);
    const sameGroup =
      last && last.kind === kind && (last.changes[0]?.op === 'delete') === (change.op === 'delete');
    if (sameGroup) last.changes.push(change);
    else groups.push({ kind, changes: [change] });
  }
  const parentOf = (kind: AnyConfigKind) => (change: PlannedChange) => {
    const object =
      docsOf.get(change.kind)?.get(change.id) ?? state.current.get(change.kind)?.get(change.id)?.doc;
    const first = object ? kind.references(object)[0] : undefined;
    return first ? refKey(first.key, first.identity) : '';
  };
  for (const group of groups) {
    const ordered = spreadByParent(group.changes, parentOf(group.kind));
    await inBatches(ordered, run.batch ?? APPLY_BATCH, (c) => settle(group.kind, c));
  }
  return results;
}
