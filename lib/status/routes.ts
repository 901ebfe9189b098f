import * as z from 'zod';
import { STATES } from '../catalog/entities.ts';
import { transitionsPageSchema } from '../checks/responses.ts';
import { slugSchema } from '../domain/formats.ts';
import { defineRoute } from '../http/define-route.ts';
import { readRoute } from '../http/handlers.ts';
import { pageQuery } from '../http/requests.ts';
import { idSchema, queryInteger } from '../http/route-schemas.ts';
import { type AuthedRoute, ok } from '../http/types.ts';
import { ValidationError } from '../platform/errors.ts';
import { RECENT_SLOTS } from './recent-strip.ts';
import { statusBoardSchema } from './responses.ts';
import { RECENT_MAX_PAGE } from './status-board.ts';
import type { StatusService } from './status-service.ts';

const transitionsQuery = pageQuery(200).extend({
  entity_id: idSchema('ent').optional().meta({ description: "Only this entity's state changes" }),
  first_results: z.enum(['include', 'exclude']).default('include').meta({
    description:
      'exclude: leave out first results (changes from unknown, e.g. after a bulk create); a filtered page may hold fewer than limit and still have a next_cursor. Default include',
  }),
});
const BOARD_MAX_PAGE = 1000;

/** GET /v1/status filters and paging: without `limit`, every matching entity. */
const boardQuery = z.object({
  state: z.enum(STATES).optional().meta({ description: 'Only entities in this state' }),
  blueprint_slug: slugSchema().optional().meta({ description: 'Only entities of this blueprint' }),
  limit: queryInteger(1, BOARD_MAX_PAGE)
    .optional()
    .meta({
      description: `Page size: an integer from 1 to ${BOARD_MAX_PAGE}; absent, every matching entity`,
    }),
  cursor: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .meta({ description: 'The next_cursor of the previous page (same filters and limit)' }),
  include: z
    .enum(['recent'])
    .optional()
    .meta({
      description: `recent: each entity's recent-results strip (its newest ${RECENT_SLOTS} result times, worst result per time) and its 24 h uptime (uptime_24h, results_24h); needs limit, at most ${RECENT_MAX_PAGE}`,
    }),
});
const tag = 'Status';

/** GET /v1/status and GET /v1/status/transitions (readable by read-only keys). */
export function statusRoutes(deps: { statusService: StatusService }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/status',
      auth: 'key',
      operationId: 'getStatus',
      expensive: true,
      tag,
      summary:
        'Entities with their state and checks (filtered by state or blueprint, paged with limit), tenant-wide counts, and how many of the entities answered have a channel not yet told their state: {entities, total, up, degraded, down, unknown, untold, next_cursor}',
      schemas: { query: boardQuery, responses: { 200: statusBoardSchema } },
      handler: async ({ principal, query }) => {
        if (query.include && (query.limit === undefined || query.limit > RECENT_MAX_PAGE)) {
          throw ValidationError.field(
            'limit',
            `Give a limit of at most ${RECENT_MAX_PAGE} with include=recent.`,
          );
        }
        return ok(await deps.statusService.board(principal.tenantId, { ...query, untold: true }));
      },
    }),
    readRoute({
      path: '/v1/status/transitions',
      operationId: 'listStatusTransitions',
      expensive: true,
      tag,
      summary:
        'Entity state changes across the tenant (or of one entity), newest first: {transitions, next_cursor}',
      query: transitionsQuery,
      response: transitionsPageSchema,
      read: (tenantId, { query }) => deps.statusService.transitions(tenantId, query),
    }),
  ];
}
