import type { Clock } from './clock.ts';

/** How much a bucket holds (`burst`) and how many tokens come back per second. */
export interface RatePolicy {
  burst: number;
  perSecond: number;
}

/** What one look at a bucket found; times in (fractional) seconds from now. */
export interface RateDecision {
  /** A token was taken (`take`), or one is there to take (`peek`). */
  allowed: boolean;
  limit: number;
  /** Whole tokens left. */
  remaining: number;
  /** Until the bucket is full again (the allowance fully restored). */
  resetSeconds: number;
  /** Until the next token is there; 0 while one is. */
  retryAfterSeconds: number;
}

/**
 * Named buckets (per API key, callback token, tenant, source address; lib/auth/limits/rate-limit.ts names
 * them): in memory in the local runtime, shared through the table in the cloud
 * (`lib/auth/limits/rate-limit-items.ts`).
 */
export interface RateLimiter {
  /**
   * Takes `cost` tokens (default one) from the named bucket when that many are there; otherwise
   * takes nothing. A cost is the objects of a bulk call (a configuration apply).
   */
  take(name: string, policy: RatePolicy, cost?: number): Promise<RateDecision>;
  /** Looks at the named bucket without taking anything. */
  peek(name: string, policy: RatePolicy): Promise<RateDecision>;
}

interface Bucket {
  tokens: number;
  atMs: number;
  /** When the bucket is full again if nothing more is taken: from then on it equals no bucket. */
  fullAtMs: number;
}

export interface MemoryRateLimiterOptions {
  clock: Clock;
  /** Buckets kept at most; past it the oldest go (that key or address starts over full). */
  maxBuckets?: number;
  /** How often full buckets are swept out. */
  sweepIntervalMs?: number;
}

/** A token bucket per name, in this process's memory; full (idle) buckets are dropped. */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter {
  const { clock } = options;
  const maxBuckets = options.maxBuckets ?? 100_000;
  const sweepIntervalMs = options.sweepIntervalMs ?? 10_000;
  const buckets = new Map<string, Bucket>();
  let lastSweepMs = clock.now();

  const sweepFull = (now: number) => {
    if (now - lastSweepMs < sweepIntervalMs) return;
    lastSweepMs = now;
    for (const [name, bucket] of buckets) if (bucket.fullAtMs <= now) buckets.delete(name);
  };

  /** Room for one more bucket: past the cap the oldest goes (Map order is insertion order). */
  const makeRoom = () => {
    for (const name of buckets.keys()) {
      if (buckets.size < maxBuckets) return;
      buckets.delete(name);
    }
  };

  const tokensNow = (name: string, policy: RatePolicy, now: number): number => {
    const bucket = buckets.get(name);
    if (!bucket) return policy.burst;
    const refilled = bucket.tokens + (Math.max(0, now - bucket.atMs) / 1000) * policy.perSecond;
    return Math.min(policy.burst, refilled);
  };

  const decide = (allowed: boolean, tokens: number, policy: RatePolicy, cost = 1): RateDecision => ({
    allowed,
    limit: policy.burst,
    remaining: Math.floor(tokens),
    resetSeconds: (policy.burst - tokens) / policy.perSecond,
    retryAfterSeconds: tokens >= cost ? 0 : (cost - tokens) / policy.perSecond,
  });

  return {
    async take(name, policy, cost = 1) {
      const now = clock.now();
      sweepFull(now);
      const tokens = tokensNow(name, policy, now);
      if (tokens < cost) return decide(false, tokens, policy, cost);
      const left = tokens - cost;
      const fullAtMs = now + ((policy.burst - left) / policy.perSecond) * 1000;
      const bucket = buckets.get(name);
      if (bucket) Object.assign(bucket, { tokens: left, atMs: now, fullAtMs });
      else {
        makeRoom();
        buckets.set(name, { tokens: left, atMs: now, fullAtMs });
      }
      return decide(true, left, policy);
    },
    async peek(name, policy) {
      const tokens = tokensNow(name, policy, clock.now());
      return decide(tokens >= 1, tokens, policy);
    },
  };
}
