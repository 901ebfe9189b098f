import { pageQuery } from '../checks/paging.ts';
import { transitionsPageSchema } from '../checks/responses.ts';
import { defineRoute } from '../http/define-route.ts';
import { type AuthedRoute, ok } from '../http/types.ts';
import { statusBoardSchema } from './responses.ts';
import type { StatusService } from './status-service.ts';

const transitionsQuery = pageQuery(200);
const tag = 'Status';

/** GET /v1/status and GET /v1/status/transitions (readable by read-only keys). */
export function statusRoutes(deps: { statusService: StatusService }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/status',
      auth: 'key',
      operationId: 'getStatus',
      tag,
      summary:
        'Every entity with its state and its checks, and counts: {entities, total, up, degraded, down, unknown}',
      schemas: { responses: { 200: statusBoardSchema } },
      handler: async ({ principal }) => ok(await deps.statusService.board(principal.tenantId)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/status/transitions',
      auth: 'key',
      operationId: 'listStatusTransitions',
      tag,
      summary: 'Entity state changes across the tenant, newest first: {transitions, next_cursor}',
      schemas: { query: transitionsQuery, responses: { 200: transitionsPageSchema } },
      handler: async ({ principal, query }) =>
        ok(await deps.statusService.transitions(principal.tenantId, query)),
    }),
  ];
}
