import { createTenantStore } from '../auth/tenants.ts';
import { composeNotifier } from '../notify/compose-notifier.ts';
import { createSesTransport } from '../notify/ses-transport.ts';
import { createSnsSmsTransport } from '../notify/sms-transport.ts';
import { createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import type { CloudBase } from './cloud-base.ts';
import { containerEgress } from './container-egress.ts';
import { createFunctionMetrics } from './metrics.ts';
import { lazySqsBatchHandler } from './sqs-batch.ts';

/** The notifier function: the notifier, its stores and senders over the notify queue; no routes. */
export function composeNotifierFunction(base: CloudBase) {
  const { table, clock, logger, config } = base;
  const notifications = composeNotifier({
    table,
    clock,
    logger,
    config,
    queue: base.notifyQueue,
    tenants: createTenantStore(table, clock),
    cursors: createCursorSeal(() => loadCursorSecret(table)),
    egress: containerEgress(base.overrides.egress),
    // Email channels send through SES in the cloud (the function may call ses:SendEmail for VIGIL_EMAIL_FROM only).
    email: createSesTransport({ region: config.region }),
    // SMS channels with provider sns publish through SNS (the function may call sns:Publish to phone numbers only).
    smsTransport: createSnsSmsTransport({ region: config.region }),
  });
  const metrics = createFunctionMetrics('notifier');
  return {
    powertools: base.powertools,
    /** Flushed after each invocation by the function's logMetrics middleware. */
    metrics: metrics.powertools,
    notifier: notifications.notifier,
    /**
     * The notifier Lambda's SQS batch handler; needs VIGIL_NOTIFY_QUEUE_URL, read at the first
     * invocation so that importing the function module (tests do) needs no queue.
     */
    notifierHandler() {
      return lazySqsBatchHandler(() => ({
        queue: base.requireNotifyQueue('the notifier sets retry delays there'),
        handle: (job) => notifications.notifier.handle(job),
        logger,
        // A deliver job sends one alert to one channel (a failed one is retried, then dead-lettered).
        metrics: {
          metrics: metrics.metrics,
          names: (job) => (job.kind === 'deliver' ? { ok: 'AlertsSent', failed: 'AlertsFailed' } : undefined),
          now: () => clock.now(),
        },
      }));
    },
  };
}
