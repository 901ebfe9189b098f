import { z } from 'zod';
import type { DueClaim } from '../checks/generator.ts';
import { type ProbeJob, probeJobSchema } from '../checks/probe-job.ts';
import { isoTime } from '../platform/clock.ts';
import { queryAll } from '../store/items.ts';
import {
  ConditionFailedError,
  type Item,
  type Key,
  MAX_TRANSACTION_OPS,
  type Table,
} from '../store/table.ts';

/**
 * The local durable probe queue: one table item per claimed job (`QUEUE#probe`, sorted by due
 * time), written in the same transaction as the claim and deleted in the same transaction as the
 * job's result, so a job is never lost between the claim and the result, nor run twice after it.
 * Not part of the change feed (STREAM_ENTITIES leaves `probe_job` out).
 */

export const PROBE_QUEUE_PK = 'QUEUE#probe';

/** A claimed job as queued: its key, due time, and the time its check's next slot falls due. */
export interface QueuedProbe {
  key: Key;
  job: ProbeJob;
  dueMs: number;
  /** The check's next slot after this one: once it is due, this job is superseded. */
  nextMs: number;
}

const queueItemSchema = z.object({
  pk: z.literal(PROBE_QUEUE_PK),
  sk: z.string(),
  ...probeJobSchema.shape,
  due_ms: z.number().int(),
  next_ms: z.number().int(),
});

/** The queue key of a job: `<due ISO>#<check_id>#<slot_ms>`. */
export function queueKey(job: ProbeJob, dueMs: number): Key {
  return { pk: PROBE_QUEUE_PK, sk: `${isoTime(dueMs)}#${job.check_id}#${job.slot_ms}` };
}

/** The queued form of a claim (its next slot read from the claim's update). */
export function queuedFromClaim(claim: DueClaim): QueuedProbe {
  const next = claim.claim.set?.next_run_at;
  const nextMs = typeof next === 'string' ? Date.parse(next) : claim.dueMs;
  return { key: queueKey(claim.job, claim.dueMs), job: claim.job, dueMs: claim.dueMs, nextMs };
}

/** The stored item of a queued job. */
export function queueItem(queued: QueuedProbe): Item {
  // The optional attributes of deadman jobs are left out when undefined (items store no undefined).
  const { next_run_at_ms, last_result_at, ...job } = queued.job;
  const item: Item = {
    ...queued.key,
    entity: 'probe_job',
    ...job,
    due_ms: queued.dueMs,
    next_ms: queued.nextMs,
  };
  if (next_run_at_ms !== undefined) item.next_run_at_ms = next_run_at_ms;
  if (last_result_at !== undefined) item.last_result_at = last_result_at;
  return item;
}

/** Parses a stored queue item; undefined when it is not one (then it is deleted, not run). */
export function parseQueued(item: Item): QueuedProbe | undefined {
  const parsed = queueItemSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const { pk, sk, due_ms, next_ms, ...job } = parsed.data;
  return { key: { pk, sk }, job, dueMs: due_ms, nextMs: next_ms };
}

/** Claims per transaction: each is two ops (the claim and the queue put). */
const CLAIMS_PER_TRANSACTION = MAX_TRANSACTION_OPS / 2;

/**
 * Commits claims with their queue items, each pair in one transaction (chunks of 50 pairs, all
 * submitted at once so they share group commits instead of waiting for one another). A claim
 * whose condition fails lost its slot to another generator: its chunk is retried without the
 * losers, so every winning claim commits. `onCommitted` receives the winners chunk by chunk.
 */
export async function commitClaims(
  table: Table,
  claims: DueClaim[],
  onCommitted: (winners: QueuedProbe[]) => void,
): Promise<number> {
  const commitChunk = async (claimsOfChunk: DueClaim[]): Promise<number> => {
    let chunk = claimsOfChunk.map((claim) => ({ claim, queued: queuedFromClaim(claim) }));
    while (chunk.length > 0) {
      try {
        await table.transact(
          chunk.flatMap(({ claim, queued }) => [
            claim.claim,
            { type: 'put' as const, item: queueItem(queued) },
          ]),
        );
        onCommitted(chunk.map(({ queued }) => queued));
        return chunk.length;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        const lost = new Set(err.failed.map((op) => Math.floor(op / 2)));
        if (lost.size === 0) throw err;
        chunk = chunk.filter((_, i) => !lost.has(i));
      }
    }
    return 0;
  };
  const chunks: DueClaim[][] = [];
  for (let start = 0; start < claims.length; start += CLAIMS_PER_TRANSACTION) {
    chunks.push(claims.slice(start, start + CLAIMS_PER_TRANSACTION));
  }
  const committed = await Promise.all(chunks.map(commitChunk));
  return committed.reduce((sum, n) => sum + n, 0);
}

/** Every queued job (and the keys of unreadable items). */
export async function loadQueued(table: Table): Promise<{ queued: QueuedProbe[]; invalid: Key[] }> {
  const items = await queryAll((cursor) =>
    table.query({ pk: PROBE_QUEUE_PK, limit: 1000, cursor, consistent: true }),
  );
  const queued: QueuedProbe[] = [];
  const invalid: Key[] = [];
  for (const item of items) {
    const parsed = parseQueued(item);
    if (parsed) queued.push(parsed);
    else invalid.push({ pk: item.pk, sk: item.sk });
  }
  return { queued, invalid };
}

/** Deletes queue items (deleting a missing one is a no-op). */
export async function deleteQueued(table: Table, keys: Key[]): Promise<void> {
  for (let start = 0; start < keys.length; start += MAX_TRANSACTION_OPS) {
    await table.transact(
      keys.slice(start, start + MAX_TRANSACTION_OPS).map((key) => ({ type: 'delete' as const, key })),
    );
  }
}
