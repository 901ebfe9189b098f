import { DEFAULT_LIMITS } from '../auth/records.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { EgressSettings } from '../egress/egress.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { createChannelStore } from './channel-setup/channel-store.ts';
import type { SmsTransport } from './channels/definition.ts';
import type { EmailTransport } from './channels/email.ts';
import { createChannelSenders } from './channels/index.ts';
import { createDeliveryStore } from './deliveries/delivery-store.ts';
import { gateEmail } from './email/email-gate.ts';
import { createEmailRecipients } from './email/email-recipients.ts';
import type { NotifyJob } from './jobs.ts';
import { createNotifier } from './pipeline/notifier.ts';
import { createPolicyStore } from './policy/policy-store.ts';

export interface NotifierDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'runtime' | 'egressAllow' | 'natsUrls' | 'natsPrefix' | 'publicUrl' | 'emailFrom'>;
  /** The notify queue: the local SQLite queue or SQS. */
  queue: JobQueue<NotifyJob>;
  tenants: TenantStore;
  cursors: CursorSeal;
  /** Outbound TLS trust and name resolution (tests: a test CA, loopback receivers). */
  egress?: EgressSettings | undefined;
  /** How email channels send: SMTP locally (lib/local/runtime.ts), SES in the cloud; undefined: they fail, saying why. */
  email?: EmailTransport | undefined;
  /** How sms channels with provider sns send: Amazon SNS in the cloud; undefined locally (they fail, saying why). */
  smsTransport?: SmsTransport | undefined;
}

/**
 * The notifier and the stores and senders it works with, without the routes: what the notifier
 * function runs (lib/cloud/notifier-composition.ts) and what the app's notification routes build on.
 */
export function composeNotifier(deps: NotifierDeps) {
  const { table, clock, config } = deps;
  const policies = createPolicyStore(table);
  const channels = createChannelStore(table, deps.cursors);
  const deliveries = createDeliveryStore(table, { clock, cursors: deps.cursors });
  const senders = createChannelSenders({
    egressAllow: config.egressAllow,
    runtime: config.runtime,
    natsUrls: config.natsUrls,
    natsPrefix: config.natsPrefix,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    ...deps.egress,
    logger: deps.logger,
    clock,
    email: deps.email,
    emailFrom: config.emailFrom,
    smsTransport: deps.smsTransport,
  });
  // Email goes only to confirmed recipients, within the tenant's daily quota (email-recipients.ts).
  const recipients = createEmailRecipients({
    table,
    clock,
    logger: deps.logger.child({ component: 'email-recipients' }),
    transport: deps.email,
    from: config.emailFrom,
    publicUrl: config.publicUrl,
    dailyLimit: async (tenantId) =>
      (await deps.tenants.getTenant(tenantId))?.email_daily_limit ?? DEFAULT_LIMITS.email_daily_limit,
  });
  const notifier = createNotifier({
    table,
    clock,
    logger: deps.logger.child({ component: 'notifier' }),
    queue: deps.queue,
    senders: gateEmail(senders, recipients),
    policies,
    channels,
    deliveries,
    tenants: deps.tenants,
  });
  return { policies, channels, deliveries, senders, notifier, recipients };
}
