import type { Context, SQSBatchResponse } from 'aws-lambda';
import { mintAckLinks } from '../ack-links/mint.ts';
import { DEFAULT_LIMITS } from '../auth/records.ts';
import { createTenantStore } from '../auth/tenants.ts';
import { pagingFor } from '../escalation/compose-paging.ts';
import { hostNotifyJobs } from '../features/job-hosts.ts';
import { type NotifyQueueJob, statusPagesShowing } from '../features/list.ts';
import { composeNotifier } from '../notify/compose-notifier.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import { createSesTransport } from '../notify/ses-transport.ts';
import { createSnsSmsTransport } from '../notify/sms-transport.ts';
import { enqueuerOf, type JobHandler } from '../platform/feature.ts';
import { createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import type { CloudBase } from './cloud-base.ts';
import { containerEgress } from './edge/container-egress.ts';
import { queueFunctionMetrics } from './edge/metrics.ts';
import { notifyQueueOf } from './queues/notify-queue.ts';
import { lazySqsBatchHandler } from './queues/sqs-batch.ts';

/** The notifier function: the notifier, its stores and senders over the notify queue; no routes. */
export function composeNotifierFunction(base: CloudBase) {
  const { table, clock, logger, config } = base;
  const tenants = createTenantStore(table, clock);
  const emailDailyLimit = async (tenantId: string) =>
    (await tenants.getTenant(tenantId))?.email_daily_limit ?? DEFAULT_LIMITS.email_daily_limit;
  const { notifyQueue, requireNotifyQueue } = notifyQueueOf(base);
  // Notify's own jobs on the notify queue (which carries every feature's: lib/features/list.ts).
  const ownQueue = enqueuerOf<NotifyQueueJob, NotifyJob>(notifyQueue);
  const sending = {
    table,
    clock,
    config,
    cursors: createCursorSeal(() => loadCursorSecret(table)),
    egress: containerEgress(base.overrides.egress),
    // Email channels send through SES in the cloud (the function may call ses:SendEmail for VIGIL_EMAIL_FROM only).
    email: createSesTransport({ region: config.region }),
    // SMS channels with provider sns publish through SNS (the function may call sns:Publish to phone numbers only).
    smsTransport: createSnsSmsTransport({ region: config.region }),
  };
  const composed = composeNotifier({
    ...sending,
    logger,
    queue: ownQueue,
    tenants,
    // Alert counters: one write per batch and tenant, flushed after each invocation (below).
    alertCounts: 'batched',
    statusPagesShowing: statusPagesShowing(table),
    // Escalation policies page people by their contact plans, through the same SES and SNS; each
    // page carries its person's acknowledgement link (lib/ack-links).
    paging: pagingFor({
      ...sending,
      logger,
      queue: ownQueue,
      publicUrl: config.publicUrl,
      emailDailyLimit,
      links: (incident, userId) =>
        mintAckLinks(
          { table, clock, config },
          { tenantId: incident.tenant_id, incidentId: incident.id, userId },
        ),
    }),
  });
  // The notify queue's jobs, each kind to the feature that declares it (lib/features).
  const handleJob: JobHandler<NotifyQueueJob> = hostNotifyJobs({
    ...sending,
    logger,
    queue: notifyQueue,
    emailDailyLimit,
    notifier: composed.lent,
  });
  // A deliver job sends one alert to one channel (a failed one is retried, then dead-lettered).
  const metrics = queueFunctionMetrics(base, 'notifier', (job: NotifyQueueJob) =>
    job.kind === 'deliver' ? { ok: 'AlertsSent', failed: 'AlertsFailed' } : undefined,
  );
  return {
    ...metrics.edge,
    notifier: { ...composed.notifier, handle: handleJob },
    /**
     * The notifier Lambda's SQS batch handler; needs VIGIL_NOTIFY_QUEUE_URL, read at the first
     * invocation so that importing the function module (tests do) needs no queue.
     */
    notifierHandler() {
      const handle = lazySqsBatchHandler(() => ({
        queue: requireNotifyQueue('the notifier sets retry delays there'),
        handle: handleJob,
        logger,
        metrics: metrics.batch,
      }));
      return async (event: unknown, context: Context): Promise<SQSBatchResponse> => {
        try {
          return await handle(event, context);
        } finally {
          await composed.flushAlertCounts();
        }
      };
    },
  };
}
