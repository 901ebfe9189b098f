import { defineMount } from '../platform/feature.ts';
import { pushFeatureRoutes } from './compose.ts';

/** What the push routes take: the shared services, the limits as `limits` and the host policy as `hosts`. */
type PushMountDeps = Parameters<typeof pushFeatureRoutes>[0];

/** Push checks' routes: keyed results, ping URLs and tokens, the ping key and slug URLs, the ping log, the runs. */
export const pushMount = defineMount({
  name: 'push',
  routes: (deps: PushMountDeps) => pushFeatureRoutes(deps),
});
