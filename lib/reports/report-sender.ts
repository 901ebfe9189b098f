import { randomUUID } from 'node:crypto';
import { DEFAULT_LIMITS, listTenants, listUsers, type Tenant, type User } from '../auth/records.ts';
import type { EmailSender } from '../domain/formats.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { EmailTransport } from '../providers/email.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { getReportClaim, reportClaimedOp, reportDoneOp } from './report-claim-items.ts';
import { readReportInput } from './report-data.ts';
import { buildReport } from './report-model.ts';
import { lastWholePeriod, type ReportPeriod } from './report-period.ts';
import { renderReport } from './report-render.ts';
import { unsubscribePath } from './unsubscribe-link.ts';

/**
 * Sends the reports that are due: for each person who asked for them, the report of their last
 * whole period, once. Each is claimed before it is built and sent (report-claim-items.ts), marked
 * sent after; the claim's lease lets a later sweep take over a send a crash cut short. A failed
 * send leaves the claim to run out and be tried again. Every report counts against its tenant's
 * daily email quota; one refused by it is marked skipped, with the reason.
 */

/** How long a claim is its sender's before another sweep may take it over. */
export const CLAIM_LEASE_MS = 10 * 60_000;

/** Adds `count` e-mails to the tenant's quota of today within `limit`; the refusal when that would pass it. */
export type SpendEmailQuota = (
  tenantId: string,
  count: number,
  limit: number,
) => Promise<{ skipped: string } | undefined>;

export interface ReportSenderDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  cursors: CursorSeal;
  /** Undefined locally without VIGIL_SMTP_URL: nothing is claimed or sent. */
  transport: EmailTransport | undefined;
  /** The tenant's daily e-mail quota (lib/notify's spendEmailQuota over the same table and clock). */
  spendEmailQuota: SpendEmailQuota;
  from: EmailSender | undefined;
  /** VIGIL_PUBLIC_URL: the console link and the unsubscribe link. */
  publicUrl: string | undefined;
}

/** What one sweep did. */
export interface SweepCounts {
  due: number;
  sent: number;
  skipped: number;
  failed: number;
}

type Frequency = ReportPeriod['frequency'];

function wanted(user: User): Frequency | undefined {
  return user.report === 'weekly' || user.report === 'monthly' ? user.report : undefined;
}

export function createReportSender(deps: ReportSenderDeps) {
  const { table, clock, logger } = deps;
  const base = (deps.publicUrl ?? '').replace(/\/+$/, '');

  const sendOne = async (
    tenant: Tenant,
    user: User,
    period: ReportPeriod,
    content: (period: ReportPeriod) => Promise<ReturnType<typeof buildReport>>,
    counts: SweepCounts,
  ): Promise<void> => {
    if (!deps.transport || !deps.from) return;
    const key = { tenant_id: tenant.id, user_id: user.id, period: period.key };
    const nowMs = clock.now();
    const held = await getReportClaim(table, key);
    if (held && (held.state !== 'sending' || held.lease_until >= nowMs)) return;
    counts.due += 1;
    const claimId = randomUUID();
    try {
      await table.transact([reportClaimedOp(key, claimId, nowMs, nowMs + CLAIM_LEASE_MS)]);
    } catch (error) {
      if (error instanceof ConditionFailedError) return;
      throw error;
    }
    const limit = tenant.email_daily_limit ?? DEFAULT_LIMITS.email_daily_limit;
    const refusal = await deps.spendEmailQuota(tenant.id, 1, limit);
    if (refusal) {
      await table.transact([
        reportDoneOp(key, claimId, { state: 'skipped', reason: refusal.skipped }, clock.now()),
      ]);
      counts.skipped += 1;
      return;
    }
    const unsubscribe = `${base}${await unsubscribePath(deps.cursors, tenant.id, user.id)}`;
    const email = renderReport(await content(period), { console: `${base}/`, unsubscribe });
    const outcome = await deps.transport.send({
      ...email,
      from: deps.from,
      to: [user.email],
      deliveryId: `report-${claimId}`,
      headers: {
        'List-Unsubscribe': `<${unsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    if (!outcome.ok) {
      counts.failed += 1;
      logger.warn('report not sent; tried again when its claim runs out', {
        tenant_id: tenant.id,
        user_id: user.id,
        period: period.key,
        error: outcome.error,
      });
      return;
    }
    await table.transact([reportDoneOp(key, claimId, { state: 'sent' }, clock.now())]);
    counts.sent += 1;
  };

  /** The due reports of one tenant's people; the report of a period is built once for all who share it. */
  const sweepTenant = async (tenant: Tenant, counts: SweepCounts): Promise<void> => {
    const users = (await listUsers(table, tenant.id)).filter((u) => wanted(u) !== undefined);
    const built = new Map<string, Promise<ReturnType<typeof buildReport>>>();
    const content = (period: ReportPeriod) => {
      const id = `${period.key}@${period.timeZone}`;
      let report = built.get(id);
      if (!report) {
        report = readReportInput(table, tenant, period, clock.now()).then(buildReport);
        built.set(id, report);
      }
      return report;
    };
    for (const user of users) {
      const frequency = wanted(user);
      if (!frequency) continue;
      const period = lastWholePeriod(frequency, user.report_time_zone ?? 'UTC', clock.now());
      // A period that ended before the person asked for reports is not theirs to receive.
      if (user.report_since && period.endMs <= Date.parse(user.report_since)) continue;
      await sendOne(tenant, user, period, content, counts);
    }
  };

  return {
    /** One sweep over every tenant; a tenant that fails is logged and the others go on. */
    async sweep(): Promise<SweepCounts> {
      const counts: SweepCounts = { due: 0, sent: 0, skipped: 0, failed: 0 };
      if (!deps.transport || !deps.from) return counts;
      for (const tenant of await listTenants(table)) {
        if (tenant.disabled) continue;
        try {
          await sweepTenant(tenant, counts);
        } catch (error) {
          counts.failed += 1;
          logger.error('reports of a tenant failed', { tenant_id: tenant.id, error });
        }
      }
      if (counts.due > 0) logger.info('report sweep', { ...counts });
      return counts;
    },
  };
}

export type ReportSender = ReturnType<typeof createReportSender>;
