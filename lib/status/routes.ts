import { pageQuery } from '../checks/paging.ts';
import { type AuthedRoute, ok } from '../http/types.ts';
import { parseInput } from '../http/validation.ts';
import type { StatusService } from './status-service.ts';

const transitionsQuery = pageQuery(200);

/** GET /v1/status and GET /v1/status/transitions (readable by read-only keys). */
export function statusRoutes(deps: { statusService: StatusService }): AuthedRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/status',
      auth: 'key',
      summary:
        'Every entity with its state and its checks, and counts: {entities, total, up, degraded, down, unknown}',
      handler: async ({ principal }) => ok(await deps.statusService.board(principal.tenantId)),
    },
    {
      method: 'GET',
      path: '/v1/status/transitions',
      auth: 'key',
      summary: 'Entity state changes across the tenant, newest first: {transitions, next_cursor}',
      handler: async ({ principal, query }) =>
        ok(
          await deps.statusService.transitions(
            principal.tenantId,
            parseInput(transitionsQuery, query, 'query'),
          ),
        ),
    },
  ];
}
