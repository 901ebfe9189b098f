import { z } from 'zod';
import { type AuthedRoute, created, noContent, ok } from '../http/types.ts';
import { parseInput } from '../http/validation.ts';
import { createCheckBody, updateCheckBody } from './check-input.ts';
import type { CheckService } from './check-service.ts';
import { pageQuery } from './paging.ts';
import type { CheckReadService } from './read-service.ts';
import { publicCheck } from './records.ts';
import { sparklineQuery } from './sparkline-reads.ts';

export interface CheckRouteDeps {
  checkService: CheckService;
  reads: CheckReadService;
}

const listChecksQuery = z.object({ entity_id: z.string().min(1).optional() });
/** Results: limit default 50, at most 500 (DECISIONS.md); transitions: the paged-list rule, at most 200. */
const resultsQuery = pageQuery(500);
const transitionsQuery = pageQuery(200);

/** The /v1/checks routes: CRUD, results, transitions and sparkline (push results live with the push receiver). */
export function checkRoutes(deps: CheckRouteDeps): AuthedRoute[] {
  const { checkService: checks, reads } = deps;
  return [
    {
      method: 'GET',
      path: '/v1/checks',
      auth: 'key',
      summary: 'List the checks of the tenant (optionally ?entity_id= for one entity)',
      handler: async ({ principal, query }) => {
        const { entity_id } = parseInput(listChecksQuery, query, 'query');
        return ok((await checks.list(principal.tenantId, { entity_id })).map(publicCheck));
      },
    },
    {
      method: 'POST',
      path: '/v1/checks',
      auth: 'key',
      summary: 'Create a check (plan limit check_limit_per_entity)',
      handler: async ({ principal, body }) =>
        created(publicCheck(await checks.create(principal.tenantId, parseInput(createCheckBody, body)))),
    },
    {
      method: 'GET',
      path: '/v1/checks/{id}',
      auth: 'key',
      summary: 'Get a check (header values redacted)',
      handler: async ({ principal, params }) =>
        ok(publicCheck(await checks.requireCheck(principal.tenantId, params.id ?? ''))),
    },
    {
      method: 'PUT',
      path: '/v1/checks/{id}',
      auth: 'key',
      summary: 'Partially update a check; a header value of ******** keeps the stored one',
      handler: async ({ principal, params, body }) =>
        ok(
          publicCheck(
            await checks.update(principal.tenantId, params.id ?? '', parseInput(updateCheckBody, body ?? {})),
          ),
        ),
    },
    {
      method: 'DELETE',
      path: '/v1/checks/{id}',
      auth: 'key',
      summary: 'Delete a check; its results and transitions are purged asynchronously',
      handler: async ({ principal, params }) => {
        await checks.remove(principal.tenantId, params.id ?? '');
        return noContent();
      },
    },
    {
      method: 'GET',
      path: '/v1/checks/{id}/results',
      auth: 'key',
      summary: 'Results, newest first: {results, next_cursor} (limit 1-500, default 50; cursor)',
      handler: async ({ principal, params, query }) =>
        ok(
          await reads.results(principal.tenantId, params.id ?? '', parseInput(resultsQuery, query, 'query')),
        ),
    },
    {
      method: 'GET',
      path: '/v1/checks/{id}/transitions',
      auth: 'key',
      summary:
        'State changes of the check, newest first: {transitions, next_cursor} (limit 1-200, default 50)',
      handler: async ({ principal, params, query }) =>
        ok(
          await reads.transitions(
            principal.tenantId,
            params.id ?? '',
            parseInput(transitionsQuery, query, 'query'),
          ),
        ),
    },
    {
      method: 'GET',
      path: '/v1/checks/{id}/sparkline',
      auth: 'key',
      summary: 'Latency and failure buckets: {check_id, start, end, buckets} (hours 1-720, buckets 1-500)',
      handler: async ({ principal, params, query }) =>
        ok(
          await reads.sparkline(
            principal.tenantId,
            params.id ?? '',
            parseInput(sparklineQuery, query, 'query'),
          ),
        ),
    },
  ];
}
