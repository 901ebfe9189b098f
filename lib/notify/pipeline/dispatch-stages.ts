import type { JobInput } from '../../platform/job-queue.ts';
import {
  digestJob,
  type GroupingContext,
  joinOpenBatch,
  placeInGroup,
  planFor,
} from '../grouping/intercept.ts';
import type { DeliveryRecord } from '../items/delivery-items.ts';
import type { DeliveryStore } from '../items/delivery-store.ts';
import { deliverJobId } from '../items/job-ids.ts';
import type { ToldRecord } from '../items/told-items.ts';
import type { NotifyJob } from '../jobs.ts';
import { claimsWord, putClaimed, type ToldDeps } from './told.ts';

/**
 * The holds after the alert stages (stages.ts), one record of one channel at a time, with the same
 * contract: each stage `{name, decide(ctx)}` passes, holds until a time (the job that ends the hold
 * goes with it) or drops. The told claim stores the record through the channel's word (told.ts:
 * a stale word is stored skipped; a record found stored is a redelivered job's), a change after a
 * word still waiting in a digest joins that digest, and a route's group or the storm fold takes a
 * new alert into its digest (grouping/intercept.ts). A record every stage passes is sent: its
 * `deliver` job. The stages write (the claim, the batch); the simulation previews the grouping
 * (grouping/intercept.ts previewPlan) instead of running them.
 */

/** What a record's dispatch is done with. */
type DispatchDeps = ToldDeps & { deliveries: Pick<DeliveryStore, 'get' | 'putNew'> };

/** One record's dispatch: its job's shared reads, and what the told claim found. */
export interface DispatchContext {
  deps: DispatchDeps;
  record: DeliveryRecord;
  retentionDays: number;
  grouping: GroupingContext;
  /** The order of the record's word when not its change's (a re-judge tells the state as of now). */
  order: string | undefined;
  /** The entity's words as the caller read them: the first claim of the channel holds on them. */
  words: ReadonlyMap<string, ToldRecord> | undefined;
  /** Set by the told claim: the record as stored now, whether this job stored it, the word it replaced. */
  claim?: { current: DeliveryRecord | undefined; created: boolean; replaced: ToldRecord | undefined };
}

type DispatchDecision =
  | { kind: 'pass' }
  | { kind: 'hold'; untilMs: number | null; job?: JobInput<NotifyJob> | undefined }
  | { kind: 'drop'; reason: string };

interface DispatchStage {
  name: string;
  decide(ctx: DispatchContext): Promise<DispatchDecision>;
}

const PASS: DispatchDecision = { kind: 'pass' };

/** The record as this job stored it, pending: what the holds after the claim look at. */
const newPending = (ctx: DispatchContext) =>
  ctx.claim?.created && ctx.claim.current?.status === 'pending' ? ctx.claim : undefined;

/**
 * The told claim (told.ts): stores the record, skipped when its channel's word is as new. A record
 * found stored (a redelivered job) goes on only while pending or folded, so nothing is sent twice.
 */
const TOLD_CLAIM: DispatchStage = {
  name: 'told claim',
  async decide(ctx) {
    const { deps, record } = ctx;
    const claimed = claimsWord(record)
      ? await putClaimed(deps, record, ctx.retentionDays, record.channel_check_id ?? null, {
          order: ctx.order,
          known: ctx.words ? { word: ctx.words.get(record.channel_id ?? '') } : undefined,
        })
      : (await deps.deliveries.putNew(record, ctx.retentionDays))
        ? { stored: record, replaced: undefined }
        : undefined;
    const current = claimed?.stored ?? (await deps.deliveries.get(record.tenant_id, record.id));
    ctx.claim = { current, created: claimed !== undefined, replaced: claimed?.replaced };
    // A folded one found again has its batch's flush enqueued again.
    if (current?.status === 'folded' && current.digest)
      return {
        kind: 'hold',
        untilMs: current.digest.due_ms,
        job: digestJob(current, current.digest, deps.clock.now()),
      };
    return current?.status === 'pending' ? PASS : { kind: 'drop', reason: current?.reason ?? 'not stored' };
  },
};

/** A change after a word still waiting folded in a digest not yet flushed joins that digest. */
const WAITING_DIGEST: DispatchStage = {
  name: 'waiting digest',
  async decide(ctx) {
    const { deps, record } = ctx;
    const replaced = newPending(ctx)?.replaced;
    if (!replaced || replaced.state === record.event.to_state || replaced.delivery_id === record.id)
      return PASS;
    const waiting = await deps.deliveries.get(record.tenant_id, replaced.delivery_id);
    if (waiting?.status !== 'folded' || !waiting.digest) return PASS;
    return (await joinOpenBatch(deps.table, record, waiting.digest, deps.clock.now()))
      ? { kind: 'hold', untilMs: waiting.digest.due_ms }
      : PASS;
  },
};

/** Grouping and the storm fold (grouping/intercept.ts): a new alert may join a group's digest instead. */
const GROUP_FOLD: DispatchStage = {
  name: 'group/fold',
  async decide(ctx) {
    if (!newPending(ctx)) return PASS;
    const { deps, record } = ctx;
    const plan = await planFor(ctx.grouping, record, deps.clock.now());
    if (!plan) return PASS;
    const flush = await placeInGroup(deps.table, record, plan, deps.clock.now());
    return { kind: 'hold', untilMs: flush?.body.kind === 'digest' ? flush.body.due_ms : null, job: flush };
  },
};

/** The stages of one record, in order. */
const DISPATCH_STAGES: readonly DispatchStage[] = [TOLD_CLAIM, WAITING_DIGEST, GROUP_FOLD];

/** Runs the record's stages: the job that sends it (all passed) or ends its hold, if any. */
export async function dispatchRecord(ctx: DispatchContext): Promise<JobInput<NotifyJob> | undefined> {
  for (const stage of DISPATCH_STAGES) {
    const decision = await stage.decide(ctx);
    if (decision.kind === 'drop') return undefined;
    if (decision.kind === 'hold') return decision.job;
  }
  const { record } = ctx;
  return {
    id: deliverJobId(record.id),
    body: { kind: 'deliver', tenant_id: record.tenant_id, delivery_id: record.id },
  };
}
