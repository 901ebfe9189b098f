import type { AuthedRoute } from '../http/types.ts';
import { type Composed, defineMount } from '../platform/feature.ts';
import { escalationPoliciesKind } from './config-kind.ts';

/** Escalation policies' routes, as ./compose.ts builds them, and the policies of the configuration document. */
export const escalationMount = defineMount({
  name: 'escalation',
  routes: ({ escalation }: Composed<'escalation', AuthedRoute>) => escalation.routes,
  configKinds: [escalationPoliciesKind],
});
