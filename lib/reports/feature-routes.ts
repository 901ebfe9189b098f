import type { Route } from '../http/types.ts';
import { type Composed, defineMount } from '../platform/feature.ts';

/** Report e-mails' routes (each person's preferences), as ./compose.ts builds them. */
export const reportsMount = defineMount({
  name: 'reports',
  routes: ({ reports }: Composed<'reports', Route>) => reports.routes,
});
