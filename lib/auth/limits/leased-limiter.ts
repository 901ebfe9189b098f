import type { Clock } from '../../platform/clock.ts';
import type { RateDecision, RateLimiter, RatePolicy } from '../../platform/rate-limiter.ts';
import { rateWindowAt } from './rate-limit-items.ts';

/** A name's tokens this instance holds in one window of the shared limiter. */
interface Lease {
  windowStartMs: number;
  /** Tokens taken from the shared window and not spent yet. */
  held: number;
  /** How many to take at the next trip to the shared window (doubles while the window is busy). */
  next: number;
}

/** Names remembered at most (past it, all are forgotten: their held tokens are given up). */
const MAX_NAMES = 10_000;
/** A lease takes at most this share of a window's allowance, so idle held tokens stay few. */
const MAX_SHARE = 10;

export interface LeasedLimiterDeps {
  /** The limiter every instance shares (the table's fixed windows, rate-limit-items.ts). */
  shared: RateLimiter;
  clock: Clock;
}

/**
 * A coarse counter over the shared fixed-window limiter: a single-token take spends a token this
 * instance already holds for the current window, or takes a lease of several from the shared
 * window in one write (1, then 2, 4, … while the window stays busy here, at most a tenth of the
 * window's allowance), keeping the rest for the next takes. Held tokens are only spent in the
 * window they were counted in, so all instances together never admit more than a window allows;
 * what a lease leaves unspent at the window's end is given up (a busy tenant near its ceiling may
 * be refused a little early, never admitted past it). A lease that does not fit falls back to
 * one token. A tenant's pings at a cron's minute thus cost a few writes, not one each.
 */
export function createLeasedLimiter(deps: LeasedLimiterDeps): RateLimiter {
  const leases = new Map<string, Lease>();

  const leaseOf = (name: string, windowStartMs: number): Lease => {
    const known = leases.get(name);
    if (known?.windowStartMs === windowStartMs) return known;
    if (leases.size >= MAX_NAMES) leases.clear();
    const fresh = { windowStartMs, held: 0, next: 1 };
    leases.set(name, fresh);
    return fresh;
  };

  const spendHeld = (lease: Lease, policy: RatePolicy, endMs: number, now: number): RateDecision => {
    lease.held -= 1;
    const untilEnd = (endMs - now) / 1000;
    return {
      allowed: true,
      limit: policy.burst,
      remaining: lease.held,
      resetSeconds: untilEnd,
      retryAfterSeconds: 0,
    };
  };

  return {
    async take(name, policy, cost = 1) {
      if (cost !== 1) return deps.shared.take(name, policy, cost);
      const before = deps.clock.now();
      const window = rateWindowAt(before, policy);
      const lease = leaseOf(name, window.startMs);
      if (lease.held > 0) return spendHeld(lease, policy, window.endMs, before);
      const size = Math.max(1, Math.min(lease.next, Math.floor(policy.burst / MAX_SHARE)));
      let decision = await deps.shared.take(name, policy, size);
      let taken = size;
      if (!decision.allowed && size > 1) {
        decision = await deps.shared.take(name, policy, 1);
        taken = 1;
      }
      if (!decision.allowed) return decision;
      // The shared limiter counted the lease in the window of its own clock reading, between these
      // two: only if both are in this window are the spare tokens this window's to spend.
      const after = deps.clock.now();
      if (rateWindowAt(after, policy).startMs === window.startMs) {
        lease.held += taken - 1;
        lease.next = taken === size ? size * 2 : 1;
      }
      return decision;
    },
    peek: (name, policy) => deps.shared.peek(name, policy),
  };
}
