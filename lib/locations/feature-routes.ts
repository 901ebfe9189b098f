import type { Route } from '../http/types.ts';
import { type Composed, defineMount } from '../platform/feature.ts';

/** Probe locations' routes and the agent protocol's, as ./compose.ts builds them. */
export const locationsMount = defineMount({
  name: 'locations',
  routes: ({ locations }: Composed<'locations', Route>) => locations.routes,
});
