import { isoTime } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import type { ReceivedJob } from '../../platform/job-queue.ts';
import { ConditionFailedError } from '../../store/table.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import { type DeliveryRecord, deliveryCreatedOp, untriedDelivery } from '../items/delivery-items.ts';
import {
  batchClosedOp,
  type DigestEntry,
  type GroupRecord,
  readBatch,
  readGroup,
} from '../items/group-items.ts';
import { digestJobId } from '../items/job-ids.ts';
import type { Digest, DigestEvent, SendOutcome } from '../items/ports.ts';
import type { NotifyJob } from '../jobs.ts';
import { digestReasons } from './alert-reason.ts';
import { waitedAnotherHop } from './due-jobs.ts';
import { type NotifyDeps, retentionDays } from './notify-deps.ts';
import { stillTrue } from './still-true.ts';

/**
 * The `digest` job: the flush of one batch of a channel's group. When due it closes the batch
 * (conditioned on the entries it read, so none joins after) in the same transaction that stores
 * its digest records, one per part of at most 1,000 events (kind `digest`, ids derived from the
 * batch); then it sends each part not yet sent, with the attempts of a `deliver` job (3, the queue
 * waiting between them), each attempt claimed on the record first (a conditional write), so two
 * runs of one flush never both send a part. A redelivered job finds the batch closed and sends
 * only what is left.
 */

type DigestJob = Extract<NotifyJob, { kind: 'digest' }>;

/** Events per digest part (DECISIONS.md). */
const MAX_PART_EVENTS = 1000;
/** Attempts per part, as a delivery's (SPEC.md: 3). */
const MAX_ATTEMPTS = 3;
/** Parts one close writes in its transaction (with the group's update: at most 100 ops). */
const MAX_PARTS = 99;

const partId = (job: DigestJob, part: number) =>
  deterministicId('dlv', job.due_ms, `${job.batch_id}|digest|${part}`);

function partRecords(
  job: DigestJob,
  channel: ChannelRecord,
  entries: [DigestEntry, ...DigestEntry[]],
  nowMs: number,
): DeliveryRecord[] {
  const parts = Math.min(MAX_PARTS, Math.ceil(entries.length / MAX_PART_EVENTS));
  return Array.from({ length: parts }, (_, i) => {
    const slice = entries.slice(i * MAX_PART_EVENTS, (i + 1) * MAX_PART_EVENTS);
    const first = (slice[0] ?? entries[0]).event;
    return {
      id: partId(job, i + 1),
      tenant_id: job.tenant_id,
      channel_id: job.channel_id,
      check_id: first.check_id,
      entity_id: first.entity_id,
      transition_id: null,
      channel_type: channel.channel_type,
      channel_check_id: channel.name === undefined ? channel.check_id : null,
      kind: 'digest',
      status: 'pending',
      reason: `digest ${job.batch_id}: ${entries.length} alert${entries.length === 1 ? '' : 's'}${parts > 1 ? `, part ${i + 1} of ${parts}` : ''}`,
      ...untriedDelivery(nowMs),
      event: first,
      digest: {
        batch_id: job.batch_id,
        group_id: job.group_id,
        due_ms: job.due_ms,
        part: i + 1,
        parts,
        events: slice.length,
      },
    };
  });
}

/** The batch's digest records: written now if it is still open, else the ones stored by an earlier run. */
async function cutBatch(deps: NotifyDeps, job: DigestJob): Promise<DeliveryRecord[]> {
  const key = { tenant_id: job.tenant_id, channel_id: job.channel_id, group_id: job.group_id };
  for (let tries = 0; tries < 8; tries += 1) {
    const group = await readGroup(deps.table, key);
    if (group?.open !== job.batch_id) return storedParts(deps, job);
    const entries = await readBatch(deps.table, job.tenant_id, job.batch_id);
    const [first, ...rest] = entries;
    if (!first) return [];
    const channel = await deps.channels.get(
      first.channel_check_id ?? first.event.check_id,
      job.channel_id,
      job.tenant_id,
    );
    const nowMs = deps.clock.now();
    const closed = batchClosedOp(key, job.batch_id, group.count ?? entries.length, nowMs);
    if (!channel) {
      // The channel is gone: the batch closes with nothing to send (its alerts stay folded).
      await deps.table.transact([closed]).catch(() => undefined);
      return [];
    }
    if ((group.count ?? entries.length) !== entries.length) continue;
    const records = partRecords(job, channel, [first, ...rest], nowMs);
    const days = await retentionDays(deps, job.tenant_id);
    try {
      await deps.table.transact([closed, ...records.map((r) => deliveryCreatedOp(r, days))]);
      return records;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  throw new Error(`batch ${job.batch_id} kept changing while being cut; the job is retried`);
}

async function storedParts(deps: NotifyDeps, job: DigestJob): Promise<DeliveryRecord[]> {
  const first = await deps.deliveries.get(job.tenant_id, partId(job, 1));
  if (!first) return [];
  const rest = await Promise.all(
    Array.from({ length: (first.digest?.parts ?? 1) - 1 }, (_, i) =>
      deps.deliveries.get(job.tenant_id, partId(job, i + 2)),
    ),
  );
  return [first, ...rest.filter((r): r is DeliveryRecord => r !== undefined)];
}

/** The digest of one part: the group, the whole batch's counts, the part's events. */
function digestOf(record: DeliveryRecord, group: GroupRecord | undefined, entries: DigestEntry[]): Digest {
  const part = record.digest?.part ?? 1;
  const counts = { down: 0, degraded: 0, up: 0 };
  for (const { event } of entries) {
    const to = event.to_state;
    if (to === 'down' || to === 'degraded' || to === 'up') counts[to] += 1;
  }
  const [, by, key] = (record.digest?.group_id ?? '').split(':');
  return {
    deliveryId: record.id,
    group: {
      by: group?.by ?? (by as Digest['group']['by']),
      key: group?.key ?? key ?? '',
      name: group?.name ?? key ?? '',
    },
    counts,
    events: entries
      .slice((part - 1) * MAX_PART_EVENTS, part * MAX_PART_EVENTS)
      .map((e) => ({ event: e.event, kind: digestKind(e.kind) })),
    part,
    parts: record.digest?.parts ?? 1,
  };
}

/** Handles one delivery of a `digest` job; throws to have a failed part tried again. */
export async function handleDigest(deps: NotifyDeps, job: ReceivedJob<DigestJob>): Promise<void> {
  const { body } = job;
  const nowMs = deps.clock.now();
  if (await waitedAnotherHop(deps, body, digestJobId(body.batch_id), nowMs)) return;
  const parts = await cutBatch(deps, body);
  let entries: DigestEntry[] | undefined;
  let group: GroupRecord | undefined;
  let failures = 0;
  for (const part of parts) {
    const record = await deps.deliveries.get(body.tenant_id, part.id);
    if (!record || record.status === 'sent' || record.status === 'failed') continue;
    if (record.attempts >= job.attempt) {
      // This attempt was made before (the job came back after a crash): only its outcome is left.
      if (job.attempt < MAX_ATTEMPTS) failures += 1;
      else await markFailed(deps, record);
      continue;
    }
    const channel = await deps.channels.get(
      record.channel_check_id ?? record.check_id,
      body.channel_id,
      body.tenant_id,
    );
    if (!channel) {
      await deps.deliveries.update(body.tenant_id, record.id, {
        status: 'failed',
        error: 'channel removed',
        updated_at: isoTime(deps.clock.now()),
      });
      continue;
    }
    // Claims the attempt: of two flushes of one batch running at once, only one sends each part.
    if (!(await claimAttempt(deps, record, job.attempt))) {
      failures += 1;
      continue;
    }
    entries ??= await stillTrue(deps, body, await readBatch(deps.table, body.tenant_id, body.batch_id));
    if (entries.length === 0) {
      // Every event of the batch was overtaken by a newer word sent alone (a recovery no route groups).
      await deps.deliveries.update(body.tenant_id, record.id, {
        status: 'skipped',
        reason: 'superseded: the channel was told newer changes of every entity in it',
        updated_at: isoTime(deps.clock.now()),
      });
      continue;
    }
    group ??= await readGroup(deps.table, body);
    const digest = digestOf(record, group, entries);
    // Each event says why, as its alert alone would (alert-reason.ts).
    digest.events = await digestReasons(deps.table, body.tenant_id, digest.events);
    const outcome = await sendDigest(deps, channel, digest);
    const at = isoTime(deps.clock.now());
    if (outcome.skipped !== undefined) {
      await deps.deliveries.update(body.tenant_id, record.id, {
        status: 'skipped',
        reason: outcome.skipped,
        updated_at: at,
      });
      continue;
    }
    const logged = {
      attempts: job.attempt,
      attempt_log: [...record.attempt_log, { at, status_code: outcome.status_code, error: outcome.error }],
      updated_at: at,
    };
    if (outcome.ok) {
      await deps.deliveries.update(body.tenant_id, record.id, {
        ...logged,
        status: 'sent',
        sent_at: at,
        error: null,
      });
      continue;
    }
    const error = outcome.error ?? `answered ${outcome.status_code ?? 'nothing'}`;
    const last = job.attempt >= MAX_ATTEMPTS;
    await deps.deliveries.update(body.tenant_id, record.id, {
      ...logged,
      status: last ? 'failed' : 'retrying',
      error,
    });
    if (!last) failures += 1;
  }
  if (failures > 0)
    throw new Error(`digest ${body.batch_id}: ${failures} part(s) failed attempt ${job.attempt}`);
}

async function sendDigest(deps: NotifyDeps, channel: ChannelRecord, digest: Digest): Promise<SendOutcome> {
  if (!deps.senders.sendDigest)
    return { ok: false, status_code: null, error: 'this runtime cannot send digests' };
  return deps.senders.sendDigest(channel, digest).catch((error: unknown) => ({
    ok: false,
    status_code: null,
    error: error instanceof Error ? error.message : String(error),
  }));
}

async function markFailed(deps: NotifyDeps, record: DeliveryRecord): Promise<void> {
  await deps.deliveries.update(record.tenant_id, record.id, {
    status: 'failed',
    updated_at: isoTime(deps.clock.now()),
  });
}

/** Sets the part's attempts to `attempt` while it is lower; false when another run took it. */
async function claimAttempt(deps: NotifyDeps, record: DeliveryRecord, attempt: number): Promise<boolean> {
  try {
    await deps.deliveries.update(
      record.tenant_id,
      record.id,
      { attempts: attempt, updated_at: isoTime(deps.clock.now()) },
      { kind: 'compare', attr: 'attempts', op: '<', value: attempt },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** A folded entry's kind as its digest names it (entries stored before repeats folded are alerts or recoveries). */
function digestKind(kind: string): DigestEvent['kind'] {
  return kind === 'recovery' || kind === 'repeat' || kind === 'escalation' || kind === 'also_failing'
    ? kind
    : 'alert';
}
