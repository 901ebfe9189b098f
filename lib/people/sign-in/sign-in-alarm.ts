import { createHash } from 'node:crypto';
import { sourceKey } from '../../auth/limits.ts';
import type { EmailSender } from '../../domain/formats.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RateLimiter } from '../../platform/rate-limiter.ts';
import type { Table } from '../../store/table.ts';
import type { MailTransport, RecordAudit } from '../ports.ts';
import { signInFailuresMail, signInFailuresText } from './sign-in-alarm-email.ts';
import {
  addSignInFailure,
  getSignInFailures,
  markSignInFailuresNotified,
  type SignInFailures,
} from './sign-in-failure-items.ts';

export interface SignInAlarmDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  /** Tells which addresses the hour has seen already (a bucket per address and hour). */
  limiter: RateLimiter;
  /** Failures in an hour that tell the person: the account's limit (VIGIL_AUTH_FAILURE_LIMIT). */
  limit: number;
  /** The password-reset e-mail's transport and sender; either missing: no e-mail (the audit entry stays). */
  mail: { transport: MailTransport | undefined; from: EmailSender | undefined };
  audit?: RecordAudit | undefined;
}

/** One failed sign-in: the account (digest), the e-mail typed, the people it may be, where it came from. */
export interface FailedSignIn {
  account: string;
  email: string;
  /** The e-mail's users with a password (none for an unknown e-mail: counted, nobody told). */
  people: ReadonlyArray<{ tenantId: string; userId: string }>;
  address: string | undefined;
  wrongCode: boolean;
}

const HOUR_MS = 3_600_000;
const SEEN_POLICY = { burst: 1, perSecond: 1 / 3600 };

/**
 * Failed sign-ins past an account's limit, told once an hour (docs/auth.md "Failed sign-ins"): each
 * failure is counted in the account's hour (`sign_in_failures`); the one that brings the hour to the
 * limit e-mails the person (the password-reset e-mail's sender) and records `session.failures` in
 * each of their teams' audit logs, actor `anonymous` (the latest address). Never what was typed.
 */
export function createSignInAlarm(deps: SignInAlarmDeps) {
  const hourOf = (now: number) => isoTime(now - (now % HOUR_MS));

  /** Whether the hour has not seen `address` fail at this account before (a limiter that fails: no). */
  const firstFrom = async (account: string, hour: string, address: string | undefined) => {
    if (address === undefined) return false;
    try {
      return (await deps.limiter.take(`LOGINSEEN#${account}#${hour}#${sourceKey(address)}`, SEEN_POLICY))
        .allowed;
    } catch {
      return false;
    }
  };

  const tell = async (failed: FailedSignIn, failures: SignInFailures, hour: string) => {
    const { transport, from } = deps.mail;
    if (transport && from) {
      const digest = createHash('sha256').update(`${failed.account}:${hour}`).digest('hex');
      const deliveryId = `signinfail-${digest.slice(0, 16)}`;
      const outcome = await transport.send(
        signInFailuresMail({ from, to: failed.email, failures, deliveryId }),
      );
      if (!outcome.ok)
        deps.logger.warn('failed sign-ins e-mail not sent', { deliveryId, error: outcome.error });
    }
    const summary = signInFailuresText(failures);
    const address = failed.address ?? 'unknown';
    for (const person of failed.people)
      await deps.audit?.({
        tenantId: person.tenantId,
        actor: { type: 'anonymous', id: address, label: `unknown caller at ${address}` },
        action: 'session.failures',
        target: { type: 'user', id: person.userId },
        summary,
        sourceIp: failed.address,
      });
  };

  return {
    /** The account's failures in the current hour. */
    async failuresThisHour(account: string): Promise<number> {
      const hour = hourOf(deps.clock.now());
      return (await getSignInFailures(deps.table, { account, hour }))?.failures ?? 0;
    },

    /** Counts one failed sign-in; the one that reaches the limit tells the person, once an hour. */
    async failed(failed: FailedSignIn): Promise<void> {
      const now = deps.clock.now();
      const hour = hourOf(now);
      const key = { account: failed.account, hour };
      const newAddress = await firstFrom(failed.account, hour, failed.address);
      const counted = await addSignInFailure(deps.table, key, {
        at: isoTime(now),
        address: failed.address,
        newAddress,
        wrongCode: failed.wrongCode,
      });
      if (counted.failures < deps.limit || counted.notified_at !== undefined || failed.people.length === 0)
        return;
      if (!(await markSignInFailuresNotified(deps.table, key, isoTime(now)))) return;
      await tell(failed, counted, hour);
    },
  };
}

export type SignInAlarm = ReturnType<typeof createSignInAlarm>;
