/**
 * lib/auth's limits: the rate-limit guard every keyed route and sign-in goes through (rate limits and
 * the failed-authentication limits), the caller it counts, and the store-backed limiter the cloud
 * composition gives it.
 */
export { sourceKey } from './limits/address-key.ts';
export type { Caller } from './limits/failure-limit.ts';
export { createRateLimitGuard, type RateLimitGuard } from './limits/rate-limit.ts';
export { createStoreRateLimiter } from './limits/rate-limit-items.ts';
