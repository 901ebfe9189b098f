import { defineMount } from '../platform/feature.ts';
import { composeOnCall } from './compose.ts';
import { schedulesKind } from './config/schedule-kind.ts';

/** On-call's routes (the schedules and their calendar feeds) and the schedules of the configuration document. */
export const onCallMount = defineMount({
  name: 'oncall',
  routes: ({ table, clock, hosts, tenantLive }: Parameters<typeof composeOnCall>[0]) =>
    composeOnCall({ table, clock, hosts, tenantLive }).routes,
  configKinds: [schedulesKind],
});
