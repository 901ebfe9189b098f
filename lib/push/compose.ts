import type { Route } from '../http/types.ts';
import { pingLogRoutes } from './log/ping-log-routes.ts';
import type { PingLogDeps } from './log/ping-log-service.ts';
import { type PingRouteDeps, pingRoutes } from './pings/ping-routes.ts';
import { createPushService, type PushServiceDeps } from './push-service.ts';
import { pushRoutes } from './routes.ts';
import { runRoutes } from './runs/run-routes.ts';
import { composeSlugUrls, type SlugUrlDeps } from './slugs/slug-urls.ts';
import { pushTokenRoutes } from './tokens/token-routes.ts';
import { createPushTokenService, type PushTokenServiceDeps } from './tokens/token-service.ts';

/**
 * Push checks' part of the app: the keyed result routes, the ping URLs and their tokens, the
 * ping key and slug URLs, the ping log, the runs. lib/app.ts composes it with the services it shares with the rest of the core.
 */
export function pushFeatureRoutes(
  deps: PushServiceDeps &
    PushTokenServiceDeps &
    Omit<PingRouteDeps, 'pushTokens'> &
    PingLogDeps &
    SlugUrlDeps,
): Route[] {
  const pushService = createPushService(deps);
  const pushTokens = createPushTokenService(deps);
  const slugUrls = composeSlugUrls(deps);
  return [
    ...pushRoutes({ pushService }),
    ...pushTokenRoutes({ pushTokens, hosts: deps.hosts }),
    ...pingRoutes({ ...deps, pushTokens, slugs: slugUrls.slugResolver }),
    ...slugUrls.routes,
    ...pingLogRoutes(deps),
    ...runRoutes(deps),
  ];
}
