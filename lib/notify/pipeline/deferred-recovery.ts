import { readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import { ConditionFailedError } from '../../store/table.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import { recoveryDueJobId } from '../items/job-ids.ts';
import { channelsForEvent, eventRouting } from '../items/route-channels.ts';
import { readToldOfEntity } from '../items/told-items.ts';
import type { NotifyJob } from '../jobs.ts';
import { delayedJob, waitedAnotherHop } from './due-jobs.ts';
import { effectivePolicy, type NotifyDeps, newDelivery, storeAndDispatch } from './notify-deps.ts';
import { truthChannels } from './rejudge.ts';
import { isDownState } from './upstream.ts';

/**
 * Resolved notices are never lost (DECISIONS.md "Alert model (wave 4)", issue 35 item 2): a
 * recovery the cooldown stops is not dropped but deferred. The event job stores one `deferred`
 * record per channel (reason `deferred: cooldown, due <ISO time>`, the record id the alert would
 * have had) and leaves one delayed `recovery_due` job at the cooldown's end (in hops of at most
 * 15 minutes, as repeats wait). When it is due:
 * - the entity is no longer up with that same transition (it went down again: that change was
 *   alerted or skipped on its own), or the policy is now silenced or has recovery alerts off: each
 *   deferred record becomes `skipped`, its reason extended with `; cancelled: <why>`; nothing is sent;
 * - otherwise each channel whose last word about the entity (told-items.ts) is a down or degraded
 *   gets the recovery under a record of its own (kind `alert`, seq `deferred`),
 *   sent as any alert; a channel never told of the down gets nothing (its deferred record becomes
 *   `skipped`, `; not sent: this channel was not told of the down`): a recovery from a down nobody
 *   heard of is noise. The deferred record itself stays `deferred`: the log shows the deferral,
 *   then the send.
 * Record ids are deterministic, so a redelivered job stores and sends nothing twice.
 */

type RecoveryDueJob = Extract<NotifyJob, { kind: 'recovery_due' }>;

/** The reason a deferred record carries. */
export const deferredReason = (dueMs: number) => `deferred: cooldown, due ${isoTime(dueMs)}`;

/** The job sending `event` (a recovery the cooldown stopped) when the cooldown ends at `dueMs`. */
export function recoveryDueJob(event: StateChangeEvent, dueMs: number, nowMs: number): JobInput<NotifyJob> {
  return delayedJob(
    { kind: 'recovery_due', event, due_ms: dueMs },
    nowMs,
    recoveryDueJobId(event.transition_id),
  );
}

/** The deferred record of `event` on `channel` (the id the event job stored it under). */
function deferredRecord(event: StateChangeEvent, channel: ChannelRecord, dueMs: number, nowMs: number) {
  // The same spec as the event job's (flow.ts: seq "0", the event's time), so the same id.
  const spec = { event, channel, kind: 'alert' as const, seq: '0', timeMs: Date.parse(event.timestamp) };
  return newDelivery({ ...spec, deferred: deferredReason(dueMs) }, nowMs);
}

/** Turns a still-deferred record into `skipped`, saying why; a record already moved stays. */
async function settleDeferred(deps: NotifyDeps, id: string, tenantId: string, why: string): Promise<void> {
  const record = await deps.deliveries.get(tenantId, id);
  if (record?.status !== 'deferred') return;
  try {
    await deps.deliveries.update(
      tenantId,
      id,
      { status: 'skipped', reason: `${record.reason}; ${why}`, updated_at: isoTime(deps.clock.now()) },
      { kind: 'compare', attr: 'status', op: '=', value: 'deferred' },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

/** Why a deferred recovery is no longer to be sent, or undefined to send it. */
async function cancelReason(deps: NotifyDeps, event: StateChangeEvent): Promise<string | undefined> {
  const entity = await readEntityById(deps.table, event.tenant_id, event.entity_id);
  if (entity?.state !== 'up' || entity.last_transition_id !== event.transition_id)
    return `cancelled: ${event.entity_name} changed again before it was due`;
  const policy = await effectivePolicy(deps, event.tenant_id, event.check_id);
  if (policy.silenced) return 'cancelled: silenced';
  if (!policy.notify_on_recovery) return 'cancelled: recovery alerts are off';
  return undefined;
}

/** Handles one `recovery_due` job; throws to have it retried. */
export async function handleRecoveryDue(deps: NotifyDeps, job: RecoveryDueJob): Promise<void> {
  const nowMs = deps.clock.now();
  const { event } = job;
  if (await waitedAnotherHop(deps, job, recoveryDueJobId(event.transition_id), nowMs)) return;
  const [own, routing] = await Promise.all([
    deps.channels.listForCheck(event.check_id),
    eventRouting(deps.table, event),
  ]);
  // The channels the recovery reaches, and every channel told anything of the entity (told-items.ts).
  const told = await readToldOfEntity(deps.table, event.tenant_id, event.entity_id);
  const channels = await truthChannels(deps, event, told, await channelsForEvent(deps, event, own, routing));
  const cancelled = await cancelReason(deps, event);
  const words = new Map(told.map((w) => [w.channel_id, w]));
  const sends = [];
  for (const channel of channels) {
    const deferredId = deferredRecord(event, channel, job.due_ms, nowMs).id;
    if (cancelled) {
      await settleDeferred(deps, deferredId, event.tenant_id, cancelled);
      continue;
    }
    const word = words.get(channel.id);
    // Told of this recovery already: a redelivered job, whose record collides and sends nothing.
    const sentBefore = word?.transition_id === event.transition_id;
    if (!sentBefore && (!word || !isDownState(word.state))) {
      await settleDeferred(
        deps,
        deferredId,
        event.tenant_id,
        'not sent: this channel was not told of the down',
      );
      continue;
    }
    sends.push(newDelivery({ event, channel, kind: 'alert', seq: 'deferred', timeMs: job.due_ms }, nowMs));
  }
  await storeAndDispatch(deps, sends);
}
