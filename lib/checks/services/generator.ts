import { nextSlot, shardOf } from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Table, UpdateOp } from '../../store/table.ts';
import { claimOp } from '../items/check-state-items.ts';
import { type DueCheck, dueCheckPages } from '../items/due-pages.ts';
import type { ProbeJob } from '../probe-job.ts';

/** A due check and the conditional update of its state item that claims its slot (moves next_run_at past it). */
export interface DueClaim {
  job: ProbeJob;
  /** Due time in ms (the slot); runtimes delay the job until then. */
  dueMs: number;
  claim: UpdateOp;
  /**
   * Further slots of the same pull check before the window's end (intervals shorter than the
   * window), when `generateShard` is asked for every slot; the claim moves next_run_at past them.
   */
  later?: { job: ProbeJob; dueMs: number }[];
}

const PAGE = 500;

/**
 * The claim of one due check: the job for its slot and the update moving it to the next slot.
 * With `untilMs`, a pull check's further slots before it become jobs of the same claim.
 */
function claimFor(check: DueCheck, nowMs: number, dueShards: number, untilMs?: number): DueClaim | undefined {
  // A disabled check has no next_run_at (and no due-index entry): it cannot be claimed.
  if (!check.next_run_at) return undefined;
  const slot = Date.parse(check.next_run_at);
  let next = nextSlot(slot, check.interval_seconds, nowMs);
  const later: { job: ProbeJob; dueMs: number }[] = [];
  if (untilMs !== undefined && check.execution_mode === 'pull') {
    for (; next < untilMs; next += check.interval_seconds * 1000) {
      later.push({
        job: { tenant_id: check.tenant_id, check_id: check.check_id, kind: 'probe', slot_ms: next },
        dueMs: next,
      });
    }
  }
  const job: ProbeJob =
    check.execution_mode === 'push'
      ? {
          tenant_id: check.tenant_id,
          check_id: check.check_id,
          kind: 'deadman',
          slot_ms: slot,
          next_run_at_ms: next,
          last_result_at: check.last_result_at,
        }
      : { tenant_id: check.tenant_id, check_id: check.check_id, kind: 'probe', slot_ms: slot };
  return {
    job,
    dueMs: slot,
    // Holds only while nobody else claimed this slot: overlapping generators cannot both win.
    claim: claimOp({
      tenantId: check.tenant_id,
      checkId: check.check_id,
      claimedRunAt: check.next_run_at,
      due: { nextRunAt: isoTime(next), shard: shardOf(check.check_id, dueShards) },
    }),
    ...(later.length > 0 ? { later } : {}),
  };
}

/**
 * Reads one shard of the due index for every check due before `windowEndMs` (no scans: a key
 * range on each of the shard's gsi2 partitions, its sub-keys and its key of earlier releases,
 * merged oldest first) and hands each page of claims to `dispatch`, which enqueues and claims them.
 */
export async function generateShard(
  shard: number,
  windowEndMs: number,
  deps: {
    table: Table;
    nowMs: number;
    dueShards: number;
    logger: Logger;
    dispatch(claims: DueClaim[]): Promise<void>;
    maxPages?: number;
    /** Due checks per page (default 500); each page is parsed and claimed in one go. */
    pageSize?: number;
    /** Every slot before `windowEndMs` becomes a job (the cloud's minute window); else one per claim. */
    allSlotsInWindow?: boolean;
  },
): Promise<number> {
  let count = 0;
  let pages = 0;
  const maxPages = deps.maxPages ?? 200;
  const until = deps.allSlotsInWindow ? windowEndMs : undefined;
  const before = isoTime(windowEndMs);
  for await (const page of dueCheckPages(deps.table, { shard, before, pageSize: deps.pageSize ?? PAGE })) {
    const claims: DueClaim[] = [];
    for (const check of page.checks) {
      const claim = claimFor(check, deps.nowMs, deps.dueShards, until);
      if (claim) claims.push(claim);
    }
    if (claims.length > 0) await deps.dispatch(claims);
    count += claims.length;
    pages += 1;
    if (page.more && pages >= maxPages) {
      deps.logger.warn('due index shard not exhausted within the page budget', { shard, count });
      return count;
    }
  }
  return count;
}
