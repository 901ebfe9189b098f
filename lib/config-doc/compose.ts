import type { RouteInvoker } from '../http/router.ts';
import type { Route } from '../http/types.ts';
import { RateLimitedError } from '../platform/errors.ts';
import type { RateLimiter, RatePolicy } from '../platform/rate-limiter.ts';
import { createConfigEngine } from './engine.ts';
import type { ConfigEngine } from './kind.ts';
import type { KindSet } from './plan/document.ts';
import { configRoutes } from './routes.ts';

export interface ConfigComposeDeps {
  invoke: RouteInvoker;
  /** The shared limiter (memory locally, the table in the cloud) that holds each tenant's objects bucket. */
  limiter: RateLimiter;
  /** Config.configObjectsLimit: undefined, no limit. */
  limit: RatePolicy | undefined;
  /** The kinds: the ones the features' mounts declare (lib/features/feature-routes.ts; tests pass their own). */
  kinds: KindSet;
}

/**
 * The configuration engine and its routes. An apply is charged per object it changes, from one
 * bucket per tenant (`CONFIG#<tenant>`), up front: the writes it makes in-process skip the
 * per-call limit, so without this a single call could make 20,000 writes (docs/api.md "Rate limits").
 */
export function composeConfigDocs(deps: ConfigComposeDeps): { engine: ConfigEngine; routes: Route[] } {
  const { kinds, limit } = deps;
  const engine = createConfigEngine({
    kinds,
    invoke: deps.invoke,
    charge: async ({ principal }, count) => {
      if (!limit) return;
      const decision = await deps.limiter.take(`CONFIG#${principal.tenantId}`, limit, count);
      if (decision.allowed) return;
      const most = Math.min(decision.remaining, limit.burst);
      throw new RateLimitedError(count > limit.burst ? 0 : decision.retryAfterSeconds, {
        message:
          count > limit.burst
            ? `this apply changes ${count} objects; one apply may change at most ${limit.burst}: split the document`
            : `this apply changes ${count} objects; the account may apply ${most} now (${limit.perSecond} more each second)`,
      });
    },
  });
  return { engine, routes: configRoutes({ engine, kinds }) };
}
