import { defineMount } from '../platform/feature.ts';
import { composeOnCall } from './compose.ts';

/** On-call's routes: the schedules and their calendar feeds. */
export const onCallMount = defineMount({
  name: 'oncall',
  routes: ({ table, clock, hosts, tenantLive }: Parameters<typeof composeOnCall>[0]) =>
    composeOnCall({ table, clock, hosts, tenantLive }).routes,
});
