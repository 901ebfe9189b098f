import { sourceKey } from '../../auth/limits.ts';
import { RateLimitedError, UnauthorizedError, ValidationError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RateDecision, RateLimiter, RatePolicy } from '../../platform/rate-limiter.ts';
import type { FailedSignIn, SignInAlarm } from './sign-in-alarm.ts';

/** The second-factor refusal of a sign-in (a wrong or spent code): a guess, like a wrong password. */
export const TOTP_INVALID = 'the code is wrong or was used already';

const isWrongCode = (error: unknown) =>
  error instanceof ValidationError && error.details?.some((d) => d.message === TOTP_INVALID) === true;

/** A failure that is a guess: a wrong password, or a wrong second-factor code. */
export const isWrongGuess = (error: unknown) => error instanceof UnauthorizedError || isWrongCode(error);

/** Past the account's limit, one address's pace at it: 5 s, doubling with each limit's worth of the hour's failures, at most 60 s. */
const slowSeconds = (failuresThisHour: number, limit: number): number =>
  Math.min(60, 5 * 2 ** Math.max(0, Math.floor(failuresThisHour / Math.max(1, limit)) - 1));

export interface AccountGateDeps {
  limiter: RateLimiter;
  /** VIGIL_AUTH_FAILURE_LIMIT: failed sign-ins a minute at one account before it slows down (0: never). */
  failuresPerMinute: number;
  logger: Logger;
  alarm?: SignInAlarm | undefined;
}

/**
 * The account's side of the failed sign-in limits (docs/auth.md "Failed sign-ins"), over all
 * addresses, never a lockout. Up to `failuresPerMinute` wrong guesses a minute nothing changes. Past
 * them a browser that signed in to the account before (`known`, its device cookie) goes on as
 * usual, and every other source is slowed, not refused: one attempt per address every
 * `slowSeconds` (429 with that Retry-After in between, the attempt not looked at), so a script
 * keeps nobody out for longer than that, and the right password gets in on its turn. Every wrong
 * guess of an unknown browser is counted for the alarm (an e-mail and an audit entry once an hour).
 */
export function createAccountGate(deps: AccountGateDeps) {
  const limit = deps.failuresPerMinute;
  const policy: RatePolicy | undefined = limit > 0 ? { burst: limit, perSecond: limit / 60 } : undefined;

  const failOpen = async (op: () => Promise<RateDecision>) => {
    try {
      return await op();
    } catch (err) {
      deps.logger.warn('rate limiter unavailable; request let through', { limit: 'account', err });
      return undefined;
    }
  };

  /** Past the limit: this address's turn at the account, or 429 until it comes. */
  const takeTurn = async (attempt: Omit<FailedSignIn, 'wrongCode'>) => {
    const failures = (await deps.alarm?.failuresThisHour(attempt.account).catch(() => limit)) ?? limit;
    const seconds = slowSeconds(failures, limit);
    const pace = { burst: 1, perSecond: 1 / seconds };
    const address = sourceKey(attempt.address) ?? 'unknown';
    const turn = await failOpen(() => deps.limiter.take(`LOGINSLOW#${attempt.account}#${address}`, pace));
    if (turn && !turn.allowed)
      throw new RateLimitedError(turn.retryAfterSeconds, {
        message: 'too many failed sign-ins for this account: try again in a few seconds',
      });
  };

  return {
    /** Runs `verify` (the password and code of one sign-in) under the account's limit. */
    async run<T>(
      attempt: Omit<FailedSignIn, 'wrongCode'> & { known: boolean },
      verify: () => Promise<T>,
    ): Promise<T> {
      if (!policy || attempt.known) return verify();
      const bucket = `LOGIN#${attempt.account}`;
      // The bucket is looked at while the password is checked, so the gate adds no round trip.
      const gate = failOpen(() => deps.limiter.peek(bucket, policy));
      const outcome = await verify().then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const decision = await gate;
      if (decision && !decision.allowed) await takeTurn(attempt);
      if (outcome.ok) return outcome.value;
      if (isWrongGuess(outcome.error)) {
        await failOpen(() => deps.limiter.take(bucket, policy));
        await deps.alarm
          ?.failed({ ...attempt, wrongCode: isWrongCode(outcome.error) })
          .catch((err) => deps.logger.warn('failed sign-in not counted', { err }));
      }
      throw outcome.error;
    },
  };
}
