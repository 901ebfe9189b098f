import { DEFAULT_LIMITS } from '../auth/records.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { StateChangeEvent } from '../domain/states.ts';
import type { EgressSettings } from '../egress/egress.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import { defineJobHost, type JobHandler } from '../platform/feature.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { EmailTransport } from '../providers/email.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import type { SmsTransport } from './channels/definition.ts';
import { createChannelSenders } from './channels/index.ts';
import { postSignedWebhook } from './channels/webhook.ts';
import { gateEmail } from './email/email-gate.ts';
import { createEmailRecipients } from './email/email-recipients.ts';
import { batchedAlertTally, immediateAlertTally } from './items/alert-tally.ts';
import { createChannelStore } from './items/channel-store.ts';
import { createDeliveryStore } from './items/delivery-store.ts';
import { createPolicyStore } from './items/policy-store.ts';
import type { StatusPagesShowing } from './items/ports.ts';
import { type NotifyJob, notifyFeature } from './jobs.ts';
import { reasonOf, reasonReads } from './pipeline/alert-reason.ts';
import type { Notifier } from './pipeline/notifier.ts';
import { createNotifier } from './pipeline/notifier.ts';

/** The jobs of escalation policies (`climb`, `page_contact`, `page_resolved`), handled by lib/escalation's paging. */
export type PagingJob = Extract<NotifyJob, { kind: 'climb' | 'page_contact' | 'page_resolved' }>;

/**
 * What the paging of people is built over: the notifier's sending to channels, and why the entity
 * is failing as an escalation's channels are told it (redacted as results are; alert-reason.ts).
 */
export type PagingParts = Pick<Notifier, 'pageChannels'> & {
  escalationReason(event: StateChangeEvent): Promise<string | null>;
};

/** Builds the handler of the paging jobs (lib/escalation's, handed in by the runtime's composition). */
export type PagingFactory = (parts: PagingParts) => (job: PagingJob) => Promise<void>;

const isPagingJob = (body: NotifyJob): body is PagingJob =>
  body.kind === 'climb' || body.kind === 'page_contact' || body.kind === 'page_resolved';

/** The parts paging is built over, from the notifier (`pagingParts(table, notifier)`). */
export const pagingParts = (table: Table, notifier: Pick<Notifier, 'pageChannels'>): PagingParts => ({
  pageChannels: notifier.pageChannels,
  escalationReason: (event) => reasonOf(reasonReads(table, event.tenant_id), 'escalation', event),
});

/** What the notifier lends other features' jobs on its queue, besides running its own. */
export interface NotifierPorts {
  /** Runs notify's own jobs (and the paging jobs it was composed with). */
  handle: JobHandler;
  /** Counts `count` e-mails against the tenant's daily quota; what it refuses says why. */
  spendEmail(tenantId: string, count: number): Promise<{ skipped: string } | undefined>;
  /** A JSON body POSTed and signed as a webhook channel's, through the same SSRF guard. */
  postSignedWebhook(
    target: { url: string; secret: string; deliveryId: string },
    body: Buffer,
  ): Promise<{ ok: boolean; status_code: number | null; error?: string | null }>;
}

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
  /** Pages people for escalation policies; undefined: their jobs fail (a runtime always gives it). */
  paging?: PagingFactory | undefined;
  /**
   * How final alerts are counted (items/alert-tally.ts): `each` a counter write per alert (the
   * default), `batched` kept until `flushAlertCounts` (the notifier function, after each batch).
   */
  alertCounts?: 'each' | 'batched' | undefined;
  /** The status pages an alert's holding names (lib/features/list.ts gives the status pages feature's). */
  statusPagesShowing: StatusPagesShowing;
}

/**
 * The notifier and the stores and senders it works with, without the routes: what the notifier
 * function runs (lib/cloud/notifier-composition.ts) and what the app's notification routes build on.
 */
export function composeNotifier(deps: NotifierDeps) {
  const { table, clock, config } = deps;
  const policies = createPolicyStore(table);
  const channels = createChannelStore(table, deps.cursors);
  const alertTally =
    deps.alertCounts === 'batched' ? batchedAlertTally(table, deps.logger) : immediateAlertTally(table);
  const deliveries = createDeliveryStore(table, { clock, cursors: deps.cursors, alerts: alertTally });
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
  const alerts = createNotifier({
    table,
    clock,
    logger: deps.logger.child({ component: 'notifier' }),
    queue: deps.queue,
    senders: gateEmail(senders, recipients),
    policies,
    channels,
    deliveries,
    tenants: deps.tenants,
    statusPagesShowing: deps.statusPagesShowing,
  });
  const paging = deps.paging?.(pagingParts(table, alerts));
  const notifier: typeof alerts = {
    ...alerts,
    handle: (job) => {
      if (isPagingJob(job.body)) {
        if (!paging) throw new Error(`no paging in this composition for a ${job.body.kind} job`);
        return paging(job.body);
      }
      return alerts.handle(job);
    },
  };
  return {
    policies,
    channels,
    deliveries,
    senders,
    notifier,
    recipients,
    /** What the notify queue's host lends other features' jobs (lib/features/job-hosts.ts). */
    lent: {
      handle: notifier.handle as JobHandler,
      spendEmail: recipients.spend,
      postSignedWebhook: (target, body) =>
        postSignedWebhook(
          { egressAllow: config.egressAllow, runtime: config.runtime, ...deps.egress },
          target,
          body,
        ),
    } satisfies NotifierPorts,
    /** Writes the alert counts kept since the last flush (nothing unless `alertCounts` is `batched`). */
    flushAlertCounts: () => alertTally.flush(),
  };
}

/** Notify's own jobs as the notify queue's host runs them: through the notifier it composed. */
export const notifyJobHost = defineJobHost({
  feature: notifyFeature,
  queue: 'notify',
  handler: (ports: { notifier: NotifierPorts }) => ports.notifier.handle,
});
