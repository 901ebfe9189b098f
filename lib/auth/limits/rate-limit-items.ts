import * as z from 'zod';
import type { Clock } from '../../platform/clock.ts';
import type { RateDecision, RateLimiter, RatePolicy } from '../../platform/rate-limiter.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';

/**
 * The rate-limit window item (`rate_window`, see docs/data-model.md): how many requests one
 * bucket name admitted in one fixed window. A window lasts `burst / perSecond` seconds and admits
 * `burst` requests, so the sustained rate is the bucket's; unlike the bucket, a client may spend
 * one window's allowance at its end and the next one's at the start (up to 2 x burst in a moment).
 */
const windowSchema = z.object({
  count: z.number().int().min(0),
  /**
   * Expiry in epoch seconds (DynamoDB TTL): the window's end plus TTL_GRACE_SECONDS. Set with the
   * count rather than derived by the definition, since the window's length (from the policy of the
   * take) is not part of the stored item.
   */
  ttl: z.number().int().optional(),
});

const rateWindow = defineItem({
  type: itemType('rate_window'),
  schema: windowSchema,
  key: (k: { name: string; start: string }) => ({ pk: `RATE#${k.name}`, sk: `W#${k.start}` }),
  keyOf: null,
  docKey: { name: '<name>', start: '<window start, epoch ms, 15 digits>' },
});

/** Window items outlive their window by this much before TTL may delete them. */
const TTL_GRACE_SECONDS = 60;

/** The key input of one bucket name's window; the window's start orders a name's items. */
const windowKey = (name: string, windowStartMs: number) => ({
  name,
  start: String(windowStartMs).padStart(15, '0'),
});

/** One fixed window of a bucket name: its allowance (`burst`) is counted from `startMs` to `endMs`. */
interface RateWindow {
  startMs: number;
  endMs: number;
}
type Window = RateWindow;

/** The window `nowMs` falls in under `policy` (how the shared limiter counts). */
function rateWindowAt(nowMs: number, policy: RatePolicy): Window {
  const lengthMs = Math.max(1, Math.round((policy.burst / policy.perSecond) * 1000));
  const startMs = nowMs - (nowMs % lengthMs);
  return { startMs, endMs: startMs + lengthMs };
}

function decide(allowed: boolean, count: number, policy: RatePolicy, untilEnd: number): RateDecision {
  const remaining = Math.max(0, policy.burst - count);
  return {
    allowed,
    limit: policy.burst,
    remaining,
    resetSeconds: untilEnd,
    retryAfterSeconds: remaining > 0 ? 0 : untilEnd,
  };
}

/** Exhausted windows this instance remembers at most (past it, it forgets them all). */
const MAX_REMEMBERED = 10_000;

/**
 * Rate limits shared by every Lambda instance through the table: `take` is ONE conditional
 * UpdateItem (add 1 to the window's count while it is below the burst), `peek` one eventually
 * consistent GetItem. An instance that saw a window exhausted refuses that name until the window
 * ends without asking the table again, so a client hammering past its limit costs one write per
 * instance and window rather than one per request (and cannot push its item past the partition's
 * write throughput, where the limiter would fail open).
 */
export function createStoreRateLimiter(deps: { table: Table; clock: Clock }): RateLimiter {
  const exhausted = new Set<string>();
  const windowId = (name: string, window: Window) => `${name} ${window.startMs}`;
  const markExhausted = (name: string, window: Window) => {
    if (exhausted.size >= MAX_REMEMBERED) exhausted.clear();
    exhausted.add(windowId(name, window));
  };
  const isExhausted = (name: string, window: Window) => exhausted.has(windowId(name, window));

  return {
    async take(name, policy, cost = 1) {
      const now = deps.clock.now();
      const window = rateWindowAt(now, policy);
      const untilEnd = (window.endMs - now) / 1000;
      if (isExhausted(name, window) || cost > policy.burst)
        return decide(false, policy.burst, policy, untilEnd);
      try {
        const item = await deps.table.update(
          rateWindow.upsert(windowKey(name, window.startMs), {
            set: { ttl: Math.ceil(window.endMs / 1000) + TTL_GRACE_SECONDS },
            add: { count: cost },
            // Room for the whole cost in this window, or nothing is taken.
            condition: {
              kind: 'or',
              conditions: [
                { kind: 'attrNotExists', attr: 'count' },
                { kind: 'compare', attr: 'count', op: '<=', value: policy.burst - cost },
              ],
            },
          }),
        );
        return decide(true, rateWindow.parse(item).count, policy, untilEnd);
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        // A large cost that did not fit says nothing of a small one: only a refused single token marks the window.
        if (cost === 1) markExhausted(name, window);
        return decide(false, policy.burst, policy, untilEnd);
      }
    },
    async peek(name, policy) {
      const now = deps.clock.now();
      const window = rateWindowAt(now, policy);
      const untilEnd = (window.endMs - now) / 1000;
      if (isExhausted(name, window)) return decide(false, policy.burst, policy, untilEnd);
      const item = await rateWindow.get(deps.table, windowKey(name, window.startMs));
      const count = item?.count ?? 0;
      return decide(count < policy.burst, count, policy, untilEnd);
    },
  };
}
