import { generateToken, hashApiKey } from '../../auth/api-key.ts';
import { listUsers } from '../../auth/records.ts';
import type { EmailSender } from '../../domain/formats.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { EmailTransport } from '../../providers/email.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { recipientsOf } from '../channels/registry.ts';
import { confirmationEmail } from './email-confirm-page.ts';
import {
  type ConfirmToken,
  confirmationIssuedOps,
  confirmedOps,
  getConfirmToken,
  getRecipients,
  quotaSpentOp,
} from './email-recipient-items.ts';

/**
 * The email channel is no relay (issue 36, as Healthchecks does it): an address receives alerts
 * only once it confirmed by a link emailed to it, or when it is the address of a user of the
 * tenant. Every email Vigil sends for a tenant (alerts, digests, tests, confirmation emails) counts
 * against the tenant's daily quota, one per recipient, kept atomically in the store.
 */

export type RecipientState = 'confirmed' | 'pending';

/** A confirmation link can be used for 7 days. */
const CONFIRM_TTL_MS = 7 * 86_400_000;
/** At most one confirmation email per address per 10 minutes. */
const CONFIRM_RESEND_MS = 10 * 60_000;

/** The path of a confirmation link (the API serves it without a key: email-confirm-routes.ts). */
const confirmPath = (tenantId: string, token: string) =>
  `/v1/email-confirmations/${encodeURIComponent(tenantId)}/${encodeURIComponent(token)}`;

export interface EmailRecipientDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  /** Undefined: confirmation emails cannot go out (the same as alerts: the channel says pending). */
  transport: EmailTransport | undefined;
  from: EmailSender | undefined;
  publicUrl?: string | undefined;
  /** The tenant's email_daily_limit (DEFAULT_LIMITS' 200 when unset: `vigil tenant limits --email-daily-limit`). */
  dailyLimit(tenantId: string): Promise<number>;
}

/** Why an email is not sent: the record is logged `skipped` with it. */
export interface Refusal {
  skipped: string;
}

/**
 * Adds `count` emails to the tenant's quota of today (UTC) within `limit`; the refusal when that
 * would pass it. Every email Vigil sends for a tenant goes through it (the reports too: lib/reports).
 */
export async function spendEmailQuota(
  deps: { table: Table; clock: Clock },
  tenantId: string,
  count: number,
  limit: number,
): Promise<Refusal | undefined> {
  const refusal = { skipped: `email quota: the tenant's daily limit of ${limit} emails is reached` };
  if (count > limit) return refusal;
  const day = isoTime(deps.clock.now()).slice(0, 10);
  const expires = Math.ceil(Date.parse(`${day}T00:00:00.000Z`) / 1000) + 2 * 86_400;
  try {
    await deps.table.update(quotaSpentOp(tenantId, day, count, limit, expires));
    return undefined;
  } catch (error) {
    if (error instanceof ConditionFailedError) return refusal;
    throw error;
  }
}

export function createEmailRecipients(deps: EmailRecipientDeps) {
  const { table, clock } = deps;

  /** Each address's state: confirmed by link, or a user's of the tenant; else pending. */
  const statesFor = async (
    tenantId: string,
    addresses: readonly string[],
  ): Promise<Map<string, RecipientState>> => {
    const states = new Map<string, RecipientState>();
    if (addresses.length === 0) return states;
    const [stored, users] = await Promise.all([
      getRecipients(table, tenantId, addresses),
      listUsers(table, tenantId),
    ]);
    const confirmed = new Set([
      ...stored.filter((r) => r.confirmed_at !== undefined).map((r) => r.address),
      ...users.map((u) => u.email.toLowerCase()),
    ]);
    for (const address of addresses)
      states.set(address, confirmed.has(address.toLowerCase()) ? 'confirmed' : 'pending');
    return states;
  };

  /** Adds `count` emails to today's quota; a refusal when that would pass the tenant's limit. */
  const spend = async (tenantId: string, count: number): Promise<Refusal | undefined> => {
    const limit = await deps.dailyLimit(tenantId);
    return spendEmailQuota({ table, clock }, tenantId, count, limit);
  };

  /** Emails one address its confirmation link, unless confirmed, emailed within 10 minutes, or over quota. */
  const requestOne = async (tenantId: string, address: string, previousHash: string | undefined) => {
    const now = clock.now();
    const { token, hash } = generateToken();
    try {
      await table.transact(
        confirmationIssuedOps({
          tenantId,
          address,
          tokenHash: hash,
          previousHash: previousHash ?? null,
          at: isoTime(now),
          expiresAt: isoTime(now + CONFIRM_TTL_MS),
          notSentSince: isoTime(now - CONFIRM_RESEND_MS),
        }),
      );
    } catch (error) {
      // Confirmed meanwhile, or emailed within the last 10 minutes: nothing to send.
      if (error instanceof ConditionFailedError) return;
      throw error;
    }
    if (!deps.transport || !deps.from) return;
    if (await spend(tenantId, 1)) {
      deps.logger.info('confirmation email not sent: email quota', { tenant_id: tenantId });
      return;
    }
    const base = deps.publicUrl?.replace(/\/+$/, '') ?? '';
    const content = confirmationEmail(`${base}${confirmPath(tenantId, token)}`, CONFIRM_TTL_MS);
    const outcome = await deps.transport
      .send({ ...content, from: deps.from, to: [address], deliveryId: `confirm-${hash.slice(0, 16)}` })
      .catch((error: unknown) => ({ ok: false, error: String(error) }));
    if (!outcome.ok)
      deps.logger.warn('confirmation email failed', { tenant_id: tenantId, error: outcome.error });
  };

  return {
    statesFor,
    /** Takes `count` emails from the tenant's daily quota (a status page's subscriber emails count too). */
    spend,

    /** Emails a confirmation link to each address of a channel not confirmed yet (rate-limited per address). */
    async requestConfirmations(tenantId: string, addresses: readonly string[]): Promise<void> {
      const states = await statesFor(tenantId, addresses);
      const pending = addresses.filter((a) => states.get(a) === 'pending');
      if (pending.length === 0) return;
      const stored = new Map(
        (await getRecipients(table, tenantId, pending)).map((r) => [r.address, r.token_hash]),
      );
      for (const address of pending) {
        // The channel is saved already: a failed confirmation email leaves the address pending
        // (saving the channel again sends one), never the save failed.
        await requestOne(tenantId, address, stored.get(address.toLowerCase())).catch((error: unknown) =>
          deps.logger.warn('confirmation email not sent', { tenant_id: tenantId, error: String(error) }),
        );
      }
    },

    /**
     * What an email to the channel's addresses may do: go to its confirmed recipients (counted
     * against today's quota), or be skipped with the reason.
     */
    async admit(tenantId: string, addresses: readonly string[]): Promise<{ to: string[] } | Refusal> {
      // No transport or sender at all: the sender's own error names the missing setting.
      if (!deps.transport || !deps.from) return { to: [...addresses] };
      const states = await statesFor(tenantId, addresses);
      const to = addresses.filter((a) => states.get(a) === 'confirmed');
      if (to.length === 0)
        return {
          skipped: `no confirmed recipient: ${addresses.length} address(es) pending confirmation by the link emailed to them`,
        };
      return (await spend(tenantId, to.length)) ?? { to };
    },

    /** The unexpired token of a confirmation link, or undefined (unknown, used or expired: the same). */
    async peek(tenantId: string, token: string): Promise<ConfirmToken | undefined> {
      if (token.length > 200) return undefined;
      const found = await getConfirmToken(table, tenantId, hashApiKey(token));
      return found && Date.parse(found.expires_at) > clock.now() ? found : undefined;
    },

    /** Confirms the link's address; undefined when the token is unknown, used or expired. */
    async confirm(tenantId: string, token: string): Promise<string | undefined> {
      if (token.length > 200) return undefined;
      const hash = hashApiKey(token);
      const found = await getConfirmToken(table, tenantId, hash);
      if (!found) return undefined;
      try {
        await table.transact(confirmedOps(tenantId, hash, found.address, isoTime(clock.now())));
        return found.address;
      } catch (error) {
        if (error instanceof ConditionFailedError) return undefined;
        throw error;
      }
    },
  };
}

export type EmailRecipients = ReturnType<typeof createEmailRecipients>;

/** The recipients of the channels among `channels` that have some to confirm (what their views show the states of). */
export function emailAddressesOf(channels: readonly { channel_type: string; config: unknown }[]): string[] {
  return channels.flatMap((c) => recipientsOf(c) ?? []);
}
