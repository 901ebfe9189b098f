import type { AuthedRoute } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { pageTimeline } from './page-timeline.ts';
import { getPolicy } from './policy-items.ts';
import { policyRoutes } from './policy-routes.ts';
import { createPolicyService } from './policy-service.ts';

/**
 * lib/escalation's face (issue 55 item 3): the policies' routes, what routes and teams read of
 * policies (the app hands them in: those features do not import this one), and the incident
 * timeline's page log.
 */
export function composeEscalation(deps: { table: Table; clock: Clock }): {
  routes: AuthedRoute[];
  policyExists(tenantId: string, id: string): Promise<boolean>;
  policies: { get: (tenantId: string, id: string) => ReturnType<typeof getPolicy> };
  pages: ReturnType<typeof pageTimeline>;
} {
  const { table } = deps;
  return {
    routes: policyRoutes({ policies: createPolicyService(deps) }),
    policyExists: async (tenantId, id) => (await getPolicy(table, tenantId, id)) !== undefined,
    policies: { get: (tenantId, id) => getPolicy(table, tenantId, id) },
    pages: pageTimeline(table),
  };
}
