import {
  AGENT_PATHS,
  leaseAnswerSchema,
  leaseRequestSchema,
  resultsAnswerSchema,
  resultsRequestSchema,
} from '../agent/protocol.ts';
import { defineRoute } from '../http/define-route.ts';
import { type LocationRoute, ok } from '../http/types.ts';
import { type AgentTransport, requireSafeTransport } from './agent-transport.ts';
import type { Heartbeat } from './heartbeat.ts';
import type { LeaseService } from './lease-service.ts';
import type { ResultIntake } from './result-intake.ts';

const tag = 'Agent';

/**
 * The agent protocol's lease and results (docs/agent.md "The protocol"; the wire is
 * lib/agent/protocol.ts): only a location key authenticates them, and each answers for the key's
 * own location only. The heartbeat is with the Locations API (routes.ts).
 */
export function agentRoutes(deps: {
  leases: LeaseService;
  intake: ResultIntake;
  heartbeat: Heartbeat;
  transport: AgentTransport;
}): LocationRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: AGENT_PATHS.lease,
      auth: 'location',
      operationId: 'agentLease',
      tag,
      summary:
        'Lease the location’s due probe jobs (location key), waiting up to `wait_seconds` for one; 403 over plain HTTP from another host (jobs carry check secrets)',
      schemas: {
        body: leaseRequestSchema,
        responses: { 200: leaseAnswerSchema },
        errors: ['FORBIDDEN'],
      },
      handler: async (ctx) => {
        requireSafeTransport(deps.transport, ctx);
        // Leasing is a sign of life too (throttled as heartbeats are).
        await deps.heartbeat.seen(ctx.location);
        return ok({ jobs: await deps.leases.lease(ctx.location, ctx.body) });
      },
    }),
    defineRoute({
      method: 'POST',
      path: AGENT_PATHS.results,
      auth: 'location',
      operationId: 'agentResults',
      tag,
      summary:
        'Post the location’s probe results (location key): each one `recorded`, `duplicate` or `expired`; idempotent by job and location',
      schemas: { body: resultsRequestSchema, responses: { 200: resultsAnswerSchema } },
      handler: async ({ location, body }) => ok(await deps.intake.post(location, body)),
    }),
  ];
}
