import type { HttpRequest } from '../http/types.ts';
import type { Config } from '../platform/config.ts';
import { RateLimitedError, UnauthorizedError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { RateDecision, RateLimiter, RatePolicy } from '../platform/rate-limiter.ts';
import type { Principal } from './principal.ts';

export interface RateLimitGuardDeps {
  limiter: RateLimiter;
  config: Pick<Config, 'rateLimit' | 'authFailuresPerMinute'>;
  logger: Logger;
}

/** An authenticated caller and the RateLimit-* headers every response to it carries. */
export interface Admission {
  principal: Principal;
  headers: Record<string, string>;
}

export type RateLimitGuard = ReturnType<typeof createRateLimitGuard>;

/** The RateLimit-* headers (IETF draft): limit = burst; reset = seconds until the allowance is whole again. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(Math.ceil(decision.resetSeconds)),
  };
}

/**
 * The router's auth -> rate limit step. Per source address, failed authentications are limited
 * (`authFailuresPerMinute`): past the limit the address gets 429 for every attempt, a correct key
 * included, so a guess cannot be confirmed faster than the limit. Per API key, a token bucket
 * (`rateLimit`) admits each request. A limiter that fails lets the request through (logged).
 */
export function createRateLimitGuard(deps: RateLimitGuardDeps) {
  const keyPolicy = deps.config.rateLimit;
  const perMinute = deps.config.authFailuresPerMinute;
  const failurePolicy: RatePolicy | undefined =
    perMinute > 0 ? { burst: perMinute, perSecond: perMinute / 60 } : undefined;

  const failOpen = async (what: string, op: () => Promise<RateDecision>) => {
    try {
      return await op();
    } catch (err) {
      deps.logger.warn('rate limiter unavailable; request let through', { limit: what, err });
      return undefined;
    }
  };

  const addressBlocked = (decision: RateDecision) =>
    new RateLimitedError(decision.retryAfterSeconds, {
      message: 'too many failed authentications from this address',
    });

  return {
    /** Authenticates the request under both limits; throws RateLimitedError past either. */
    async admit(
      req: HttpRequest,
      authenticate: (authorization: string | undefined) => Promise<Principal>,
    ): Promise<Admission> {
      const authorization = req.headers.authorization;
      const address = failurePolicy && authorization !== undefined ? req.sourceIp : undefined;
      const bucket = `ADDR#${address}`;
      // The address is looked at while the key is checked, so the gate adds no round trip.
      const gate =
        address && failurePolicy
          ? failOpen('address', () => deps.limiter.peek(bucket, failurePolicy))
          : undefined;
      const checkGate = async () => {
        const decision = await gate;
        if (decision && !decision.allowed) throw addressBlocked(decision);
      };
      let principal: Principal;
      try {
        principal = await authenticate(authorization);
      } catch (error) {
        await checkGate();
        if (address && failurePolicy && error instanceof UnauthorizedError) {
          const counted = await failOpen('address', () => deps.limiter.take(bucket, failurePolicy));
          if (counted && !counted.allowed) throw addressBlocked(counted);
        }
        throw error;
      }
      if (gate) await checkGate();
      if (!keyPolicy) return { principal, headers: {} };
      const decision = await failOpen('key', () => deps.limiter.take(`KEY#${principal.keyId}`, keyPolicy));
      if (!decision) return { principal, headers: {} };
      const headers = rateLimitHeaders(decision);
      if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds, { headers });
      return { principal, headers };
    },
  };
}
