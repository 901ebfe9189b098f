import { createHash } from 'node:crypto';
import type { Config } from '../../platform/config.ts';
import { RateLimitedError } from '../../platform/errors.ts';
import type { RateDecision, RateLimiter, RatePolicy } from '../../platform/rate-limiter.ts';
import { sourceKey } from './address-key.ts';

/** Where a request came from, as the runtime saw it (lib/http/types.ts `sourceIp`). */
export interface Caller {
  sourceIp?: string | undefined;
}

export interface FailureLimitDeps {
  limiter: RateLimiter;
  config: Pick<Config, 'authFailuresPerMinute' | 'authFailuresPerAddressPerMinute'>;
  /** Runs a limiter call; undefined when the limiter failed (the request is let through). */
  failOpen(what: string, op: () => Promise<RateDecision>): Promise<RateDecision | undefined>;
}

const perMinute = (n: number): RatePolicy | undefined =>
  n > 0 ? { burst: n, perSecond: n / 60 } : undefined;

let lastTag: { id: string; tag: string } | undefined;

/**
 * A short digest of a credential's identifying part: bucket names stay short and hold nothing a
 * caller chose. The last one is kept (a client sends one credential request after request).
 */
export const credentialTag = (id: string): string => {
  if (lastTag?.id === id) return lastTag.tag;
  lastTag = { id, tag: createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, 16) };
  return lastTag.tag;
};

const blocked = (decision: RateDecision) =>
  new RateLimitedError(decision.retryAfterSeconds, {
    message: 'too many failed authentications from this address',
  });

/**
 * Failed authentications of one source address (an IPv6 address by its /64: address-key.ts),
 * counted twice (docs/api.md "Rate limits"): per credential (`authFailuresPerMinute`, a key by its
 * 12-character prefix), so a client repeating a wrong key blocks only that key from its address;
 * and per address over all credentials (`authFailuresPerAddressPerMinute`, higher), so a caller
 * trying many different keys is stopped too. Past either, the attempt gets 429 whatever it offers,
 * a correct credential included: a guesser must not learn of a right guess by its answer. A
 * blocked attempt is not counted again.
 */
export function createFailureLimit(deps: FailureLimitDeps) {
  const credentialPolicy = perMinute(deps.config.authFailuresPerMinute);
  const addressPolicy = perMinute(deps.config.authFailuresPerAddressPerMinute);

  return {
    /**
     * Runs `verify` (a key lookup, a token check) for the credential identified by `credentialId`;
     * a failure `isWrong` recognises (a wrong credential) counts against the caller's address.
     */
    async attempt<T>(
      caller: Caller,
      credentialId: string,
      verify: () => Promise<T>,
      isWrong: (error: unknown) => boolean,
    ): Promise<T> {
      const address = sourceKey(caller.sourceIp);
      const buckets: Array<[string, RatePolicy]> = [];
      if (address && credentialPolicy)
        buckets.push([`AUTH#${address}#${credentialTag(credentialId)}`, credentialPolicy]);
      if (address && addressPolicy) buckets.push([`ADDR#${address}`, addressPolicy]);
      if (buckets.length === 0) return verify();
      // The buckets are looked at while the credential is checked, so the gate adds no round trip.
      const gate = Promise.all(
        buckets.map(([name, policy]) => deps.failOpen('address', () => deps.limiter.peek(name, policy))),
      );
      const throwIfBlocked = (decisions: Array<RateDecision | undefined>) => {
        for (const decision of decisions) if (decision && !decision.allowed) throw blocked(decision);
      };
      let result: T;
      try {
        result = await verify();
      } catch (error) {
        throwIfBlocked(await gate);
        if (isWrong(error)) {
          const counted = await Promise.all(
            buckets.map(([name, policy]) => deps.failOpen('address', () => deps.limiter.take(name, policy))),
          );
          throwIfBlocked(counted);
        }
        throw error;
      }
      throwIfBlocked(await gate);
      return result;
    },
  };
}
