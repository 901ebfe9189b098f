import type { Tenant } from '../../auth/records.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import type { JobInput, JobQueue } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Table } from '../../store/table.ts';
import { type GroupingContext, groupingContext } from '../grouping/intercept.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import type { ChannelStore } from '../items/channel-store.ts';
import { type DeliveryRecord, untriedDelivery } from '../items/delivery-items.ts';
import type { DeliveryStore } from '../items/delivery-store.ts';
import { POLICY_DEFAULTS, type PolicyRecord } from '../items/policy-items.ts';
import type { PolicyStore } from '../items/policy-store.ts';
import type { ChannelSenders, StatusPagesShowing } from '../items/ports.ts';
import type { ToldRecord } from '../items/told-items.ts';
import type { NotifyJob } from '../jobs.ts';
import { dispatchRecord } from './dispatch-stages.ts';

/** What the notifier's job handlers work with (built once per runtime by createNotifier). */
export interface NotifyDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  queue: JobQueue<NotifyJob>;
  senders: ChannelSenders;
  policies: Pick<PolicyStore, 'get'>;
  channels: Pick<ChannelStore, 'listForCheck' | 'get' | 'getSharedMany'>;
  deliveries: Pick<DeliveryStore, 'get' | 'putNew' | 'update'>;
  tenants: { getTenant(tenantId: string): Promise<Pick<Tenant, 'retention_days'> | undefined> };
  /** The status pages an alert's holding names (the status pages feature's, handed in by the composition). */
  statusPagesShowing: StatusPagesShowing;
}

/** The check's policy, or the defaults (revision 0) when none was ever written. */
export async function effectivePolicy(
  deps: Pick<NotifyDeps, 'policies' | 'clock'>,
  tenantId: string,
  checkId: string,
): Promise<PolicyRecord> {
  const stored = await deps.policies.get(checkId);
  if (stored && stored.tenant_id === tenantId) return stored;
  const now = isoTime(deps.clock.now());
  return {
    id: '',
    tenant_id: tenantId,
    check_id: checkId,
    ...POLICY_DEFAULTS,
    created_at: now,
    updated_at: now,
    revision: 0,
  };
}

/** Enqueues jobs; throws when any could not be (the caller's job is then retried). */
export async function enqueueAll(deps: NotifyDeps, jobs: JobInput<NotifyJob>[]): Promise<void> {
  if (jobs.length === 0) return;
  const { failed } = await deps.queue.enqueue(jobs);
  if (failed.length > 0) throw new Error(`${failed.length} notify job(s) could not be enqueued`);
}

/** What a new delivery record is made of; `seq` tells apart several records of one transition and channel. */
export interface DeliverySpec {
  event: StateChangeEvent;
  channel: ChannelRecord | null;
  kind: DeliveryRecord['kind'];
  /** "0" for the alert, "after:<trn>" for a released one, the repeat's number for a repeat. */
  seq: string;
  /** The time the id is ordered by (newest first in the log). */
  timeMs: number;
  /** A skip reason: the record is stored `skipped` and no job follows. */
  skipped?: string;
  /** A deferral's reason (a recovery waiting for its cooldown's end): stored `deferred`, no job follows. */
  deferred?: string;
}

/** A new record; its id is the same for the same transition, channel, kind and seq, so a redelivery collides. */
export function newDelivery(spec: DeliverySpec, nowMs: number): DeliveryRecord {
  const { event, channel } = spec;
  return {
    id: deterministicId(
      'dlv',
      spec.timeMs,
      `${event.transition_id}|${channel?.id ?? '-'}|${spec.kind}|${spec.seq}`,
    ),
    tenant_id: event.tenant_id,
    channel_id: channel?.id ?? null,
    check_id: event.check_id,
    entity_id: event.entity_id,
    transition_id: spec.kind === 'test' ? null : event.transition_id,
    channel_type: channel?.channel_type ?? null,
    ...(channel ? { channel_check_id: channel.name === undefined ? channel.check_id : null } : {}),
    kind: spec.kind,
    status: spec.skipped !== undefined ? 'skipped' : spec.deferred !== undefined ? 'deferred' : 'pending',
    reason: spec.skipped ?? spec.deferred ?? null,
    ...untriedDelivery(nowMs),
    event,
  };
}

/** One new record of the spec for each channel, stored and dispatched (storeAndDispatch). */
export async function deliverToEach(
  deps: NotifyDeps,
  channels: ChannelRecord[],
  spec: Omit<DeliverySpec, 'channel'>,
  nowMs: number,
): Promise<void> {
  await storeAndDispatch(
    deps,
    channels.map((channel) => newDelivery({ ...spec, channel }, nowMs)),
  );
}

/** Days a tenant's delivery records are kept (its result retention). */
export async function retentionDays(deps: NotifyDeps, tenantId: string): Promise<number> {
  const tenant = await deps.tenants.getTenant(tenantId);
  return tenant?.retention_days ?? 30;
}

/**
 * Stores the records and enqueues a `deliver` job for each one sent, or the job that ends its hold
 * (dispatch-stages.ts). A record already stored (a redelivered job) is enqueued again only while it
 * is still pending or folded, so nothing is sent twice.
 */
export async function storeAndDispatch(
  deps: NotifyDeps,
  records: DeliveryRecord[],
  options: {
    /** The order of the records' words when not their change's (a re-judge tells the state as of now). */
    order?: string | undefined;
    /** The entity's words as the caller read them (readToldOfEntity): the first claim of each channel holds on them instead of reading again. */
    words?: ReadonlyMap<string, ToldRecord> | undefined;
    /** The grouping context of the caller's job (job-context.ts), its routes and blueprint read already. */
    grouping?: GroupingContext | undefined;
  } = {},
): Promise<void> {
  const first = records[0];
  if (!first) return;
  const days = await retentionDays(deps, first.tenant_id);
  const jobs: JobInput<NotifyJob>[] = [];
  const grouping = options.grouping ?? groupingContext(deps.table, first.tenant_id);
  // Each record through the dispatch stages (dispatch-stages.ts): the told claim, a waiting
  // digest, a group or the storm fold; what passes them all is sent.
  for (const record of records) {
    const job = await dispatchRecord({
      deps,
      record,
      retentionDays: days,
      grouping,
      order: options.order,
      words: options.words,
    });
    if (job) jobs.push(job);
  }
  await enqueueAll(deps, jobs);
}
