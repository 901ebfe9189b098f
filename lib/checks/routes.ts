import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { deleteRoute, readRoute } from '../http/handlers.ts';
import { pageQuery } from '../http/requests.ts';
import { idSchema, queryInteger } from '../http/route-schemas.ts';
import { type AuthedRoute, created, ok } from '../http/types.ts';
import { ValidationError } from '../platform/errors.ts';
import { createCheckBody, updateCheckBody } from './check-input.ts';
import { type CheckFilter, checkFilterQuery, filterParams } from './definitions/check-filter.ts';
import { locationName } from './definitions/check-locations-input.ts';
import { publicCheck } from './records.ts';
import {
  publicCheckSchema,
  resultsPageSchema,
  runCompletedSchema,
  runDispatchedSchema,
  sparklineSchema,
  transitionsPageSchema,
} from './responses.ts';
import { RECENT_PAGE_MAX, RECENT_RESULTS } from './results/check-recent.ts';
import { sparklineQuery } from './results/sparkline-reads.ts';
import type { CheckService } from './services/check-service.ts';
import type { DraftRun } from './services/draft-run.ts';
import { draftRunSchema } from './services/draft-run-schema.ts';
import type { CheckReadService } from './services/read-service.ts';
import type { RunNow } from './services/run-now.ts';

export interface CheckRouteDeps {
  checkService: CheckService;
  reads: CheckReadService;
  runNow: RunNow;
  draftRun: DraftRun;
}

/** The path of every /v1/checks/{id} route (push routes included). */
export const checkParams = z.object({ id: idSchema('chk') });
/** The largest page of GET /v1/checks (its `limit`). */
const CHECK_LIST_MAX = 1000;
const listChecksQuery = z
  .object({
    entity_id: z.string().min(1).optional().meta({ description: 'Only the checks of this entity' }),
    ...checkFilterQuery,
    include: z
      .enum(['recent'])
      .optional()
      .meta({
        description: `recent: each check carries \`recent\` (its last ${RECENT_RESULTS} results and its 24 h uptime); needs limit, at most ${RECENT_PAGE_MAX}`,
      }),
    limit: queryInteger(1, CHECK_LIST_MAX)
      .optional()
      .meta({
        description: `Page size, 1 to ${CHECK_LIST_MAX}; without it, every check in one answer. The next page is in the Link header`,
      }),
    cursor: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .meta({ description: "The cursor of the Link header's next page (with limit)" }),
  })
  .refine((query) => query.cursor === undefined || query.limit !== undefined, {
    path: ['limit'],
    message: 'This field is required with cursor.',
  })
  .refine((query) => query.include === undefined || (query.limit ?? Infinity) <= RECENT_PAGE_MAX, {
    path: ['limit'],
    message: `Give a limit of at most ${RECENT_PAGE_MAX} with include=recent.`,
  });
/** The Link header of a paged list: GitHub-style, the next page only. */
const linkHeader = {
  Link: {
    description:
      'With limit: `</v1/checks?limit=100&cursor=...>; rel="next"` (entity_id, the filters and include kept) while more checks may follow; absent on the last page. A filtered page may hold fewer than limit checks (each request reads a bounded number of stored checks); follow the link until it is absent',
    schema: { type: 'string' },
  },
};

/** The query of GET /v1/checks a next page repeats. */
type ListQuery = CheckFilter & {
  entity_id?: string | undefined;
  include?: 'recent' | undefined;
  limit: number;
};

/** The Link header value announcing the page after `cursor` of GET /v1/checks. */
function nextChecksLink(query: ListQuery, cursor: string) {
  const params = new URLSearchParams();
  if (query.entity_id !== undefined) params.set('entity_id', query.entity_id);
  filterParams(query, params);
  if (query.include !== undefined) params.set('include', query.include);
  params.set('limit', String(query.limit));
  params.set('cursor', cursor);
  return `</v1/checks?${params.toString()}>; rel="next"`;
}
/** Results: limit default 50, at most 500 (DECISIONS.md); transitions: the paged-list rule, at most 200. */
const resultsQuery = pageQuery(500).extend({
  location: locationName.optional().meta({
    description:
      "A location name: that location's own rows of a located check (newest slot first, each with `location`) instead of the decided results",
  }),
  until: z.iso.datetime({ offset: true }).optional().meta({
    description:
      "Only results checked (or slotted) at or before this time (ISO 8601): a page that starts at an older result, as the console does for an alert's evidence link; not with `location`",
  }),
});
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
      summary:
        'List the checks of the tenant, oldest first, filtered on the server (entity_id, blueprint, type, state, q); paged with limit (next page in the Link header)',
      schemas: {
        query: listChecksQuery,
        responses: { 200: z.array(publicCheckSchema) },
        responseHeaders: linkHeader,
      },
      handler: async ({ principal, query }) => {
        const { entity_id, limit, cursor, include, blueprint, type, state, q } = query;
        const filter = { entity_id, blueprint, type, state, q };
        if (limit === undefined) {
          return ok((await checks.list(principal.tenantId, filter)).map((c) => publicCheck(c, principal)));
        }
        const page = await checks.page(principal.tenantId, { ...filter, limit, cursor });
        const recent = include === 'recent' ? await reads.recent(page.checks) : undefined;
        const body = page.checks.map((c) => ({
          ...publicCheck(c, principal),
          ...(recent ? { recent: recent.get(c.id) } : {}),
        }));
        if (page.nextCursor === null) return ok(body);
        return {
          status: 200,
          body,
          headers: { link: nextChecksLink({ ...filter, include, limit }, page.nextCursor) },
        };
      },
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
        created(
          publicCheck(
            await checks.named(principal.tenantId, await checks.create(principal.tenantId, body)),
            principal,
          ),
        ),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/checks/run-draft',
      auth: 'key',
      operationId: 'runDraftCheck',
      tag,
      summary:
        "Probe a check that is not saved yet, once (the console editor's Run now): the create body, the outcome it would store (steps included); nothing is stored, no state moves",
      schemas: {
        body: createCheckBody,
        responses: { 200: draftRunSchema },
        // NOT_FOUND: entity_id names no entity of the tenant. CONFLICT: a push check. RATE_LIMITED: the tenant's manual runs.
        errors: ['NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
      },
      handler: async ({ principal, body }) => ok(await deps.draftRun(principal.tenantId, body)),
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
        ok(publicCheck(await checks.read(principal.tenantId, params.id), principal)),
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
        ok(
          publicCheck(
            await checks.named(principal.tenantId, await checks.update(principal.tenantId, params.id, body)),
            principal,
          ),
        ),
    }),
    deleteRoute({
      path: '/v1/checks/{id}',
      operationId: 'deleteCheck',
      tag,
      summary: 'Delete a check; its results and transitions are purged asynchronously',
      params: checkParams,
      errors: ['CONFLICT'],
      remove: (tenantId, params) => checks.remove(tenantId, params.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/results',
      auth: 'key',
      operationId: 'listCheckResults',
      tag,
      summary:
        "Results, newest first: {results, next_cursor} (limit 1-500, default 50; cursor); ?location=: that location's own rows",
      schemas: { params: checkParams, query: resultsQuery, responses: { 200: resultsPageSchema } },
      handler: async ({ principal, params, query }) => {
        const { location, until, ...page } = query;
        if (location === undefined) {
          return ok(await reads.results(principal.tenantId, params.id, { ...page, until }));
        }
        if (until !== undefined) {
          throw new ValidationError('until applies to the decided results', [
            { path: 'until', message: "is not taken with location: page a location's rows with cursor" },
          ]);
        }
        return ok(await reads.locationResults(principal.tenantId, params.id, location, page));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/checks/{id}/run',
      auth: 'key',
      operationId: 'runCheck',
      tag,
      summary:
        'Probe the check once now: 200 with the stored result (manual: true) for a pull check; 202 for a located check (dispatched to its locations)',
      schemas: {
        params: checkParams,
        // Nothing to send: an empty body or {}.
        body: z.strictObject({}).optional(),
        responses: { 200: runCompletedSchema, 202: runDispatchedSchema },
        // CONFLICT: a push or disabled check. RATE_LIMITED: per check and per tenant.
        errors: ['CONFLICT', 'RATE_LIMITED'],
      },
      handler: async ({ principal, params }) => {
        const answer = await deps.runNow(principal.tenantId, params.id);
        return { status: answer.status === 'completed' ? 200 : 202, body: answer };
      },
    }),
    readRoute({
      path: '/v1/checks/{id}/transitions',
      operationId: 'listCheckTransitions',
      tag,
      summary:
        'State changes of the check, newest first: {transitions, next_cursor} (limit 1-200, default 50)',
      params: checkParams,
      query: transitionsQuery,
      response: transitionsPageSchema,
      read: (tenantId, { params, query }) => reads.transitions(tenantId, params.id, query),
    }),
    readRoute({
      path: '/v1/checks/{id}/sparkline',
      operationId: 'getCheckSparkline',
      tag,
      summary: 'Latency and failure buckets: {check_id, start, end, buckets} (hours 1-720, buckets 1-500)',
      params: checkParams,
      query: sparklineQuery,
      response: sparklineSchema,
      read: (tenantId, { params, query }) => reads.sparkline(tenantId, params.id, query),
    }),
  ];
}

/** GET /v1/checks/{id}/results/{result_id}/artifacts/{name}: a result's screenshot. */
export { artifactRoutes } from './routes/artifact-routes.ts';
