import { z } from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { idSchema } from '../http/route-schemas.ts';
import { type AuthedRoute, created, noContent, ok } from '../http/types.ts';
import { createCheckBody, updateCheckBody } from './check-input.ts';
import type { CheckService } from './check-service.ts';
import { pageQuery } from './paging.ts';
import type { CheckReadService } from './read-service.ts';
import { publicCheck } from './records.ts';
import { publicCheckSchema, resultsPageSchema, sparklineSchema, transitionsPageSchema } from './responses.ts';
import { sparklineQuery } from './sparkline-reads.ts';

export interface CheckRouteDeps {
  checkService: CheckService;
  reads: CheckReadService;
}

/** The path of every /v1/checks/{id} route (push routes included). */
export const checkParams = z.object({ id: idSchema('chk') });
const listChecksQuery = z.object({
  entity_id: z.string().min(1).optional().meta({ description: 'Only the checks of this entity' }),
});
/** Results: limit default 50, at most 500 (DECISIONS.md); transitions: the paged-list rule, at most 200. */
const resultsQuery = pageQuery(500);
const transitionsQuery = pageQuery(200);
const tag = 'Checks';

/** The /v1/checks routes: CRUD, results, transitions and sparkline (push results live with the push receiver). */
export function checkRoutes(deps: CheckRouteDeps): AuthedRoute[] {
  const { checkService: checks, reads } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/checks',
      auth: 'key',
      operationId: 'listChecks',
      tag,
      summary: 'List the checks of the tenant (optionally ?entity_id= for one entity)',
      schemas: { query: listChecksQuery, responses: { 200: z.array(publicCheckSchema) } },
      handler: async ({ principal, query }) =>
        ok((await checks.list(principal.tenantId, { entity_id: query.entity_id })).map(publicCheck)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/checks',
      auth: 'key',
      operationId: 'createCheck',
      tag,
      summary: 'Create a check (plan limit check_limit_per_entity)',
      schemas: {
        body: createCheckBody,
        responses: { 201: publicCheckSchema },
        // NOT_FOUND: entity_id names no entity of the tenant.
        errors: ['NOT_FOUND', 'CONFLICT', 'LIMIT_EXCEEDED'],
      },
      handler: async ({ principal, body }) =>
        created(publicCheck(await checks.create(principal.tenantId, body))),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}',
      auth: 'key',
      operationId: 'getCheck',
      tag,
      summary: 'Get a check (header values redacted)',
      schemas: { params: checkParams, responses: { 200: publicCheckSchema } },
      handler: async ({ principal, params }) =>
        ok(publicCheck(await checks.requireCheck(principal.tenantId, params.id))),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/checks/{id}',
      auth: 'key',
      operationId: 'updateCheck',
      tag,
      summary: 'Partially update a check; a header value of ******** keeps the stored one',
      schemas: {
        params: checkParams,
        body: updateCheckBody.default({}),
        responses: { 200: publicCheckSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        ok(publicCheck(await checks.update(principal.tenantId, params.id, body))),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/checks/{id}',
      auth: 'key',
      operationId: 'deleteCheck',
      tag,
      summary: 'Delete a check; its results and transitions are purged asynchronously',
      schemas: { params: checkParams, responses: { 204: null }, errors: ['CONFLICT'] },
      handler: async ({ principal, params }) => {
        await checks.remove(principal.tenantId, params.id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/results',
      auth: 'key',
      operationId: 'listCheckResults',
      tag,
      summary: 'Results, newest first: {results, next_cursor} (limit 1-500, default 50; cursor)',
      schemas: { params: checkParams, query: resultsQuery, responses: { 200: resultsPageSchema } },
      handler: async ({ principal, params, query }) =>
        ok(await reads.results(principal.tenantId, params.id, query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/transitions',
      auth: 'key',
      operationId: 'listCheckTransitions',
      tag,
      summary:
        'State changes of the check, newest first: {transitions, next_cursor} (limit 1-200, default 50)',
      schemas: { params: checkParams, query: transitionsQuery, responses: { 200: transitionsPageSchema } },
      handler: async ({ principal, params, query }) =>
        ok(await reads.transitions(principal.tenantId, params.id, query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/sparkline',
      auth: 'key',
      operationId: 'getCheckSparkline',
      tag,
      summary: 'Latency and failure buckets: {check_id, start, end, buckets} (hours 1-720, buckets 1-500)',
      schemas: { params: checkParams, query: sparklineQuery, responses: { 200: sparklineSchema } },
      handler: async ({ principal, params, query }) =>
        ok(await reads.sparkline(principal.tenantId, params.id, query)),
    }),
  ];
}
