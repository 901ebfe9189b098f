import type { Principal } from '../../domain/principal.ts';
import type { HttpRequest } from '../../http/types.ts';
import type { Config } from '../../platform/config.ts';
import { RateLimitedError, UnauthorizedError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RateDecision, RateLimiter, RatePolicy } from '../../platform/rate-limiter.ts';
import { keyPrefix } from '../api-key.ts';
import { sourceKey } from './address-key.ts';
import { type Caller, createFailureLimit, credentialTag } from './failure-limit.ts';

export interface RateLimitGuardDeps {
  limiter: RateLimiter;
  /**
   * Buckets in this process's memory, for a push check's ping bucket (see `admitPing`); the shared
   * `limiter` when absent. In the local runtime both are in memory anyway.
   */
  instanceLimiter?: RateLimiter;
  config: Pick<
    Config,
    'rateLimit' | 'tenantRateLimit' | 'authFailuresPerMinute' | 'authFailuresPerAddressPerMinute'
  > &
    Partial<Pick<Config, 'pingRateLimit' | 'pingBodyBytesPerDay' | 'pingKeyGuessesPerMinute'>>;
  logger: Logger;
}

/** An authenticated caller and the RateLimit-* headers every response to it carries. */
export interface Admission<P = Principal> {
  principal: P;
  headers: Record<string, string>;
}

export type RateLimitGuard = ReturnType<typeof createRateLimitGuard>;

/** The RateLimit-* headers (IETF draft): limit = burst; reset = seconds until the allowance is whole again. */
function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(Math.ceil(decision.resetSeconds)),
  };
}

/** What identifies the credential an Authorization header offers: a key's displayed prefix. */
function credentialOf(authorization: string): string {
  const bearer = /^(?:Bearer|Session)\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? authorization;
  return keyPrefix(bearer);
}

const isUnauthorized = (error: unknown) => error instanceof UnauthorizedError;

/**
 * The rate limits of every request (docs/api.md "Rate limits"): failed authentications per
 * source address (lib/auth/limits/failure-limit.ts); then, once a key or callback token is known, its own
 * token bucket (`rateLimit`) and its tenant's ceiling over all of them (`tenantRateLimit`); a push
 * check's own bucket for its pings (`pingRateLimit`, no tenant ceiling); and a bucket per source
 * address on the routes without a key. A limiter that fails lets the request
 * through (logged).
 */
export function createRateLimitGuard(deps: RateLimitGuardDeps) {
  const { limiter } = deps;
  const tenantPolicy = deps.config.tenantRateLimit;

  const failOpen = async (what: string, op: () => Promise<RateDecision>) => {
    try {
      return await op();
    } catch (err) {
      deps.logger.warn('rate limiter unavailable; request let through', { limit: what, err });
      return undefined;
    }
  };
  const failures = createFailureLimit({ limiter, config: deps.config, failOpen });

  /**
   * One request of an authenticated caller: from its own bucket (`KEY#…`, `EXEC#…`), then from its
   * tenant's. Answers the caller's RateLimit-* headers, or throws 429 past either.
   */
  const spend = async (
    bucket: string,
    tenantId: string,
    ownPolicy: RatePolicy | undefined,
  ): Promise<Record<string, string>> => {
    let headers: Record<string, string> = {};
    if (ownPolicy) {
      const own = await failOpen('key', () => limiter.take(bucket, ownPolicy));
      if (own) headers = rateLimitHeaders(own);
      if (own && !own.allowed) throw new RateLimitedError(own.retryAfterSeconds, { headers });
    }
    if (tenantPolicy) {
      const tenant = await failOpen('tenant', () => limiter.take(`TENANT#${tenantId}`, tenantPolicy));
      if (tenant && !tenant.allowed)
        throw new RateLimitedError(tenant.retryAfterSeconds, {
          headers,
          message: 'too many requests for this account (all its keys together)',
        });
    }
    return headers;
  };

  /** One token of one bucket, none of a tenant's: the RateLimit-* headers, or 429 (`message`) past it. */
  const takeOne = async (
    what: string,
    from: RateLimiter,
    name: string,
    policy: RatePolicy | undefined,
    message: string,
  ): Promise<Record<string, string>> => {
    if (!policy) return {};
    const decision = await failOpen(what, () => from.take(name, policy));
    if (!decision) return {};
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds, { headers, message });
    return headers;
  };

  /**
   * `verify` under a bucket shared by every address: a failure `isWrong` recognises counts in
   * `name` (`n` a minute; 0: no limit); past it, 429 before `verify` runs, and for the failure
   * that went past.
   */
  const ceiling = async <T>(
    name: string,
    n: number,
    message: string,
    verify: () => Promise<T>,
    isWrong: (error: unknown) => boolean,
  ): Promise<T> => {
    if (n <= 0) return verify();
    const policy = { burst: n, perSecond: n / 60 };
    const refuse = (decision: RateDecision | undefined) => {
      if (decision && !decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds, { message });
    };
    refuse(await failOpen('credential', () => limiter.peek(name, policy)));
    try {
      return await verify();
    } catch (error) {
      if (isWrong(error)) refuse(await failOpen('credential', () => limiter.take(name, policy)));
      throw error;
    }
  };

  return {
    /**
     * Authenticates the request's key (an API key, or a location key on /v1/agent/*) under every
     * limit; throws RateLimitedError past one.
     */
    async admit<P extends Pick<Principal, 'keyId' | 'tenantId'> = Principal>(
      req: HttpRequest,
      authenticate: (authorization: string | undefined) => Promise<P>,
    ): Promise<Admission<P>> {
      const authorization = req.headers.authorization;
      // No credential offered is no guess: a plain 401, not counted.
      const principal =
        authorization === undefined
          ? await authenticate(undefined)
          : await failures.attempt(
              req,
              credentialOf(authorization),
              () => authenticate(authorization),
              isUnauthorized,
            );
      const headers = await spend(`KEY#${principal.keyId}`, principal.tenantId, deps.config.rateLimit);
      return { principal, headers };
    },

    /**
     * Verifies a credential that is not an API key (a callback token, an invitation token) under
     * the failed-authentication limits; `credentialId` identifies it (not the secret part).
     */
    attempt: failures.attempt,

    /** One write with an execution's callback token: the execution's own bucket and its tenant's. */
    admitCallback: (executionId: string, tenantId: string) =>
      spend(`EXEC#${executionId}`, tenantId, deps.config.rateLimit),

    /**
     * One ping of a push check, through any of its ping URLs (a token, a slug): the check's own
     * token bucket (`pingRateLimit`: a burst, then a rate), and no tenant ceiling. At the top of
     * the hour every cron job of a tenant pings at once; each check spends only from its own
     * bucket, so one check's flood never refuses another's ping (DECISIONS.md "Cron runs (wave 6)").
     * The bucket is kept in this process's memory (`instanceLimiter`): a ping writes no limiter item
     * (docs/performance.md "Cost of a ping"); in the cloud a check gets its rate per ping function
     * instance, bounded by that function's reserved concurrency (docs/heartbeats.md "Limits").
     * Unknown tokens are counted per address before this (`attempt`), wrong slugs per ping key
     * (`attemptPingKey`).
     */
    admitPing: (checkId: string) =>
      takeOne(
        'ping',
        deps.instanceLimiter ?? limiter,
        `PING#${checkId}`,
        deps.config.pingRateLimit,
        'too many pings for this check',
      ),

    /**
     * One outside alert request with an integration's token (docs/integrations.md "Bounds"): the
     * integration's own bucket (the per-key policy), then its tenant's ceiling, which every key and
     * integration of the tenant spends from. Alertmanager and SNS retry a 429.
     */
    admitIngest: (integrationId: string, tenantId: string) =>
      spend(`INGEST#${integrationId}`, tenantId, deps.config.rateLimit),

    /**
     * Whether a ping body of `bytes` fits the tenant's day of ping bodies (`pingBodyBytesPerDay`, a
     * token bucket spent by the bytes kept); false past it (the body is then cut). An empty body
     * costs nothing; a failing limiter lets it through.
     */
    async admitPingBody(tenantId: string, bytes: number): Promise<boolean> {
      const perDay = deps.config.pingBodyBytesPerDay ?? 0;
      if (bytes === 0 || perDay === 0) return true;
      const policy = { burst: perDay, perSecond: perDay / 86_400 };
      const decision = await failOpen('ping body', () => limiter.take(`PINGBODY#${tenantId}`, policy, bytes));
      return decision?.allowed ?? true;
    },

    /**
     * Slug lookups through one ping key, from every address together: a miss (`isWrong`) counts in
     * the key's bucket (`pingKeyGuessesPerMinute`, `bucket` naming the key without holding it);
     * past it every lookup through that key is 429 for a while, a right slug included, so a key's
     * slugs cannot be guessed from many addresses either.
     */
    attemptPingKey: <T>(bucket: string, verify: () => Promise<T>, isWrong: (error: unknown) => boolean) =>
      ceiling(
        `GUESS#${bucket}`,
        deps.config.pingKeyGuessesPerMinute ?? 0,
        'too many wrong slugs with this ping key',
        verify,
        isWrong,
      ),

    /**
     * A secret of one thing (a private status page's password) guessed from every address
     * together: a wrong one (`isWrong`) counts in the thing's bucket (`CEIL#…`, `credentialId`
     * naming it by a digest), up to `authFailuresPerMinute` a minute; past it every attempt at it is
     * 429 for a while, a right one included, whatever the address. The per-address limits
     * (`attempt`) stop one address; this bounds a guess spread over many.
     */
    attemptAcrossAddresses: <T>(
      credentialId: string,
      verify: () => Promise<T>,
      isWrong: (error: unknown) => boolean,
    ) =>
      ceiling(
        `CEIL#${credentialTag(credentialId)}`,
        deps.config.authFailuresPerMinute,
        'too many wrong attempts at this from all addresses: try again in a minute',
        verify,
        isWrong,
      ),

    /** One request to a route without a key: a bucket per source address (an IPv6 /64; the per-key policy). */
    admitAddress(caller: Caller): Promise<Record<string, string>> {
      const address = sourceKey(caller.sourceIp);
      if (!address) return Promise.resolve({});
      return takeOne(
        'address',
        limiter,
        `ANON#${address}`,
        deps.config.rateLimit,
        'too many requests from this address',
      );
    },
  };
}
