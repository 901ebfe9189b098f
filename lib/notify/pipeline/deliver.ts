import { isoTime } from '../../platform/clock.ts';
import { type ReceivedJob, RetryLaterError, retryDelaySeconds } from '../../platform/job-queue.ts';
import { ConditionFailedError } from '../../store/table.ts';
import type { Attempt, DeliveryRecord } from '../items/delivery-items.ts';
import type { SendOutcome } from '../items/ports.ts';
import type { NotifyJob } from '../jobs.ts';
import { sendAcknowledgement } from './acknowledge.ts';
import { alertFor } from './alert-context.ts';
import type { NotifyDeps } from './notify-deps.ts';
import { alertSentOp } from './notify-state-items.ts';

/**
 * The `deliver` job: one attempt of one delivery record per delivery of the job. A failed attempt
 * throws, so the queue brings the job back after 1 s, then 2 s; the third failure marks the record
 * failed. The record's `attempts` counts the attempts of its current series (a retry through the
 * API starts a new one; `attempt_log` keeps them all) and says which attempt is next: a delivery of
 * the job that failed on the store (an outage the queue outlasts with its own delays) made no
 * attempt, so it spends none. A send whose record write failed left no trace: the retry sends again
 * under the same delivery id (X-Service-Delivery), so the receiver can tell the duplicate. A
 * record already `sent` only has its follow-up writes completed, never a second send.
 */

type DeliverJob = Extract<NotifyJob, { kind: 'deliver' }>;

/** Attempts per delivery, the first included (SPEC.md limits: 3, waiting 1 s then 2 s). */
const MAX_DELIVERY_ATTEMPTS = 3;

/** Thrown after a failed attempt that has attempts left: the queue retries the job after 1 s, then 2 s. */
class DeliveryAttemptError extends RetryLaterError {
  override name = 'DeliveryAttemptError';
}

// folded and deferred records never get a deliver job; a stray one sends nothing.
const FINAL: ReadonlySet<DeliveryRecord['status']> = new Set([
  'sent',
  'failed',
  'skipped',
  'folded',
  'deferred',
]);

/** Handles one delivery of a `deliver` job; throws to have the next attempt made later. */
export async function handleDeliver(deps: NotifyDeps, job: ReceivedJob<DeliverJob>): Promise<void> {
  const { tenant_id: tenantId, delivery_id: deliveryId } = job.body;
  const record = await deps.deliveries.get(tenantId, deliveryId);
  if (!record) return;
  // Sent before, and its cooldown write may have failed with the store: write it again (a newer one stays).
  if (record.status === 'sent' && record.kind === 'alert' && record.sent_at)
    return recordSent(deps, tenantId, record.check_id, Date.parse(record.sent_at));
  if (FINAL.has(record.status)) return;
  // Every attempt of this series was made and logged; only marking the record failed was left.
  if (record.attempts >= MAX_DELIVERY_ATTEMPTS) return afterFailedAttempt(deps, record, record.error);
  const attemptNo = record.attempts + 1;

  const channel = record.channel_id
    ? await deps.channels.get(record.channel_check_id ?? record.check_id, record.channel_id, tenantId)
    : undefined;
  if (!channel) {
    await deps.deliveries.update(tenantId, deliveryId, {
      status: 'failed',
      error: 'channel removed',
      updated_at: isoTime(deps.clock.now()),
    });
    return;
  }

  // A sender that throws instead of answering an outcome still counts as a logged, failed attempt.
  const sending =
    record.kind === 'acknowledge'
      ? sendAcknowledgement(deps, channel, record)
      : alertFor(deps, record).then((alert) => deps.senders.send(channel, alert));
  const outcome: SendOutcome = await sending.catch((error: unknown) => ({
    ok: false,
    status_code: null,
    error: error instanceof Error ? error.message : String(error),
  }));
  const nowMs = deps.clock.now();
  // The email gate sent nothing on purpose (unconfirmed recipients, the daily quota): no retry.
  if (outcome.skipped !== undefined) {
    await deps.deliveries.update(tenantId, deliveryId, {
      status: 'skipped',
      reason: outcome.skipped,
      updated_at: isoTime(nowMs),
    });
    return;
  }
  const attempt: Attempt = { at: isoTime(nowMs), status_code: outcome.status_code, error: outcome.error };
  const logged = {
    attempts: attemptNo,
    attempt_log: [...record.attempt_log, attempt],
    updated_at: attempt.at,
  };
  if (outcome.ok) {
    await deps.deliveries.update(tenantId, deliveryId, {
      ...logged,
      status: 'sent',
      sent_at: attempt.at,
      error: null,
    });
    if (record.kind === 'alert') await recordSent(deps, tenantId, record.check_id, nowMs);
    return;
  }
  const error = outcome.error ?? `answered ${outcome.status_code ?? 'nothing'}`;
  const updated = await deps.deliveries.update(tenantId, deliveryId, {
    ...logged,
    status: attemptNo < MAX_DELIVERY_ATTEMPTS ? 'retrying' : 'failed',
    error,
  });
  return afterFailedAttempt(deps, updated, error);
}

/** After a failed attempt: throw while attempts are left (1 s, then 2 s), else the record is (already) failed. */
async function afterFailedAttempt(
  deps: NotifyDeps,
  record: DeliveryRecord,
  error: string | null,
): Promise<void> {
  if (record.status === 'sent') return;
  if (record.attempts < MAX_DELIVERY_ATTEMPTS) {
    throw new DeliveryAttemptError(
      `delivery ${record.id} attempt ${record.attempts} failed: ${error ?? 'unknown error'}`,
      retryDelaySeconds(record.attempts),
    );
  }
  if (record.status !== 'failed') {
    await deps.deliveries.update(record.tenant_id, record.id, {
      status: 'failed',
      updated_at: isoTime(deps.clock.now()),
    });
  }
}

/** Records an alert sent at `atMs` (the cooldown counts from it); a newer time stored already stays. */
async function recordSent(deps: NotifyDeps, tenantId: string, checkId: string, atMs: number): Promise<void> {
  try {
    await deps.table.update(alertSentOp(tenantId, checkId, isoTime(atMs)));
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
