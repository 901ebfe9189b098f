import type { EmailSender } from '../domain/formats.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { EmailTransport } from '../providers/email.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { createReportPreferences } from './report-preference.ts';
import { createReportSender, type SpendEmailQuota } from './report-sender.ts';

export type { ReportSender } from './report-sender.ts';

import { reportRoutes } from './routes.ts';

export interface ReportsDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  cursors: CursorSeal;
  /** SMTP locally, SES in the cloud; undefined: no report is sent. */
  email: EmailTransport | undefined;
  /** The tenant's daily e-mail quota, which every e-mail Vigil sends counts against (lib/notify keeps it). */
  spendEmailQuota: SpendEmailQuota;
  config: { emailFrom: EmailSender | undefined; publicUrl: string | undefined };
}

/**
 * The report e-mails (docs/reports.md): each person's preference and its routes, and the sender
 * the local runtime's timer and the cloud's reports function sweep with.
 */
export function composeReports(deps: ReportsDeps) {
  const preferences = createReportPreferences(deps);
  const sender = createReportSender({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger.child({ component: 'reports' }),
    cursors: deps.cursors,
    transport: deps.email,
    spendEmailQuota: deps.spendEmailQuota,
    from: deps.config.emailFrom,
    publicUrl: deps.config.publicUrl,
  });
  return { sender, routes: reportRoutes({ preferences, cursors: deps.cursors }) };
}
