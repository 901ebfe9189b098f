import { readEntityById } from '../../catalog/entities.ts';
import { getCheckDefinition } from '../../checks/check-items.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { ReceivedJob } from '../../platform/job-queue.ts';
import { ConditionFailedError } from '../../store/table.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import { channelSeenFrom } from '../items/channel-store.ts';
import type { DeliveryRecord } from '../items/delivery-items.ts';
import { retryJobId } from '../items/job-ids.ts';
import type { NotifyActions, SendOutcome } from '../items/ports.ts';
import type { NotifyJob } from '../jobs.ts';
import { handleAcknowledge } from './acknowledge.ts';
import { alertFor } from './alert-context.ts';
import { handleAlsoFailing } from './also-failing-alert.ts';
import { handleRecoveryDue } from './deferred-recovery.ts';
import { handleDeliver } from './deliver.ts';
import { handleDigest } from './digest.ts';
import { rejudgeJob } from './due-jobs.ts';
import { handleEscalate } from './escalation.ts';
import { handleFlapSettle } from './flapping.ts';
import { handleEvent } from './flow.ts';
import { handleMaintenanceEnd } from './maintenance-end.ts';
import { enqueueAll, type NotifyDeps, newDelivery, retentionDays, storeAndDispatch } from './notify-deps.ts';
import { handleRejudge } from './rejudge.ts';
import { handleRepeat } from './repeat.ts';

/**
 * The notifier: the notify queue's job handler (the local job runner and the notifier Lambda call
 * `handle`), and the actions the API asks of it (a test message, the retry of a failed delivery).
 */

/** The transition id a test message's event carries: it belongs to no state change. */
const TEST_TRANSITION_ID = 'test';

/** Builds the notifier over the stores, the notify queue and the channel senders. */
export function createNotifier(deps: NotifyDeps) {
  /** Runs one delivery of a notify job; throws to have the queue bring it back after its retry delay. */
  const handle = async (job: ReceivedJob<NotifyJob>): Promise<void> => {
    const { body } = job;
    switch (body.kind) {
      case 'event':
        return handleEvent(deps, body);
      case 'deliver':
        return handleDeliver(deps, { ...job, body });
      case 'repeat':
        return handleRepeat(deps, body);
      case 'maintenance_end':
        return handleMaintenanceEnd(deps, body);
      case 'escalate':
        return handleEscalate(deps, body);
      case 'digest':
        return handleDigest(deps, { ...job, body });
      case 'recovery_due':
        return handleRecoveryDue(deps, body);
      case 'flap_settle':
        return handleFlapSettle(deps, body);
      case 'acknowledge':
        return handleAcknowledge(deps, body);
      case 'rejudge':
        return handleRejudge(deps, body);
      case 'also_failing':
        return handleAlsoFailing(deps, body);
    }
  };

  const sendOne = async (channel: ChannelRecord, record: DeliveryRecord): Promise<DeliveryRecord> => {
    let outcome: SendOutcome;
    try {
      outcome = await deps.senders.send(channel, await alertFor(deps, record));
    } catch (error) {
      outcome = {
        ok: false,
        status_code: null,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    const at = isoTime(deps.clock.now());
    if (outcome.skipped !== undefined)
      return deps.deliveries.update(record.tenant_id, record.id, {
        status: 'skipped',
        reason: outcome.skipped,
        updated_at: at,
      });
    const error = outcome.ok ? null : (outcome.error ?? `answered ${outcome.status_code ?? 'nothing'}`);
    return deps.deliveries.update(record.tenant_id, record.id, {
      status: outcome.ok ? 'sent' : 'failed',
      attempts: 1,
      attempt_log: [{ at, status_code: outcome.status_code, error: outcome.error }],
      sent_at: outcome.ok ? at : null,
      error,
      updated_at: at,
    });
  };

  const actions: NotifyActions = {
    async sendChannelTest(tenantId, channel) {
      // A shared channel attached to no check: a test message about no entity or check (empty ids,
      // so the record is listed under no check and its text names none: message.ts).
      const nowMs = deps.clock.now();
      const event: StateChangeEvent = {
        entity_id: '',
        entity_name: 'Vigil',
        check_id: '',
        tenant_id: tenantId,
        from_state: 'up',
        to_state: 'up',
        transition_id: TEST_TRANSITION_ID,
        timestamp: isoTime(nowMs),
      };
      const target = channelSeenFrom(channel, '');
      const record = newDelivery(
        { event, channel: target, kind: 'test', seq: newId('req', nowMs), timeMs: nowMs },
        nowMs,
      );
      await deps.deliveries.putNew(record, await retentionDays(deps, tenantId));
      return sendOne(target, record);
    },

    async sendTest(tenantId, checkId, only) {
      const check = await getCheckDefinition(deps.table, tenantId, checkId, { consistent: true });
      if (!check) throw new NotFoundError('check');
      const entity = await readEntityById(deps.table, tenantId, check.entity_id);
      const nowMs = deps.clock.now();
      const event: StateChangeEvent = {
        entity_id: check.entity_id,
        entity_name: entity?.name ?? check.entity_slug,
        check_id: checkId,
        tenant_id: tenantId,
        from_state: entity?.state ?? 'unknown',
        to_state: entity?.state ?? 'unknown',
        transition_id: TEST_TRANSITION_ID,
        timestamp: isoTime(nowMs),
      };
      const channels = only ?? (await deps.channels.listForCheck(checkId));
      const days = await retentionDays(deps, tenantId);
      const series = newId('req', nowMs);
      return Promise.all(
        channels.map(async (channel) => {
          const record = newDelivery({ event, channel, kind: 'test', seq: series, timeMs: nowMs }, nowMs);
          await deps.deliveries.putNew(record, days);
          return sendOne(channel, record);
        }),
      );
    },

    async rejudge(tenantId, entityId, by) {
      const nowMs = deps.clock.now();
      await enqueueAll(deps, [rejudgeJob({ tenant_id: tenantId, entity_id: entityId }, nowMs, by, nowMs)]);
    },

    async retry(tenantId, deliveryId) {
      const record = await deps.deliveries.get(tenantId, deliveryId);
      if (!record) throw new NotFoundError('delivery');
      if (record.status !== 'failed')
        throw new ConflictError(`only a failed delivery can be retried; this one is ${record.status}`);
      let pending: DeliveryRecord;
      try {
        pending = await deps.deliveries.update(
          tenantId,
          deliveryId,
          { status: 'pending', attempts: 0, error: null, updated_at: isoTime(deps.clock.now()) },
          { kind: 'compare', attr: 'status', op: '=', value: 'failed' },
        );
      } catch (error) {
        if (error instanceof ConditionFailedError)
          throw new ConflictError('the delivery is being retried already');
        throw error;
      }
      await enqueueAll(deps, [
        {
          id: retryJobId(deliveryId, record.attempt_log.length),
          body: { kind: 'deliver', tenant_id: tenantId, delivery_id: deliveryId },
        },
      ]);
      return pending;
    },
  };

  /**
   * Sends an incident's escalation to the tenant channels a policy step names (lib/escalation's
   * climb): one `escalation` record per channel and `seq` (a redelivery stores and sends nothing
   * more), sent as route channels are. Answers the channels that still exist.
   */
  const pageChannels = async (
    event: StateChangeEvent,
    channelIds: readonly string[],
    seq: string,
  ): Promise<{ id: string; channel_type: string }[]> => {
    const channels = await deps.channels.getSharedMany(event.tenant_id, channelIds);
    const nowMs = deps.clock.now();
    await storeAndDispatch(
      deps,
      channels.map((channel) =>
        newDelivery(
          {
            event,
            channel: channelSeenFrom(channel, event.check_id),
            kind: 'escalation',
            seq,
            timeMs: Date.parse(event.timestamp),
          },
          nowMs,
        ),
      ),
    );
    return channels.map((c) => ({ id: c.id, channel_type: c.channel_type }));
  };

  return { handle, pageChannels, ...actions };
}
export type Notifier = ReturnType<typeof createNotifier>;
