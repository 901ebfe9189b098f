import { spendEmailQuota } from '../notify/email-transport.ts';
import { createSesTransport } from '../notify/ses-transport.ts';
import { createReportSender } from '../reports/report-sender.ts';
import { createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import type { CloudBase } from './cloud-base.ts';

/**
 * The reports function: the sweep of due report e-mails (lib/reports), invoked by its EventBridge
 * Scheduler rule (infra/reports.ts); e-mail through SES as the notifier's. No routes, no queues.
 */
export function composeReportsFunction(base: CloudBase) {
  const { table, clock, logger, config } = base;
  const sender = createReportSender({
    table,
    clock,
    logger,
    cursors: createCursorSeal(() => loadCursorSecret(table)),
    transport: createSesTransport({ region: config.region }),
    spendEmailQuota: (tenantId, count, limit) => spendEmailQuota({ table, clock }, tenantId, count, limit),
    from: config.emailFrom,
    publicUrl: config.publicUrl,
  });
  return {
    powertools: base.powertools,
    /** One sweep per invocation; a redelivered invocation finds the reports it sent claimed. */
    reportsHandler() {
      return async () => sender.sweep();
    },
  };
}
