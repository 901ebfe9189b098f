import * as z from 'zod';
import { slugSchema } from '../domain/formats.ts';
import { defineRoute } from '../http/define-route.ts';
import type { AuthedRoute } from '../http/types.ts';
import type { Table } from '../store/table.ts';
import { MAX_METRIC_ENTITIES, tenantMetrics } from './tenant-metrics.ts';

/** What the answer is (the text exposition format 0.0.4); the document names its media type, text/plain. */
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4';

const metricsQuery = z.object({
  blueprint_slug: slugSchema()
    .optional()
    .meta({ description: 'Only the entities (and checks) of this blueprint: one scrape job per blueprint' }),
});

/** GET /v1/metrics: the tenant's metrics for Prometheus (readable by read-only keys). */
export function metricsRoutes(deps: { table: Table }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/metrics',
      auth: 'key',
      operationId: 'getMetrics',
      expensive: true,
      tag: 'Status',
      summary: `The tenant's entity and check states, last latencies and result and alert counters in the Prometheus text format (at most ${MAX_METRIC_ENTITIES} entities per answer)`,
      schemas: {
        query: metricsQuery,
        responses: {
          200: {
            contentType: 'text/plain',
            schema: z
              .string()
              .meta({ description: `Prometheus text exposition format 0.0.4 (${PROMETHEUS_TEXT})` }),
          },
        },
      },
      handler: async ({ principal, query }) => {
        const out = await tenantMetrics(deps.table, principal.tenantId, query);
        return new Response(out.body, {
          status: 200,
          headers: { 'content-type': PROMETHEUS_TEXT, 'cache-control': 'no-store' },
        });
      },
    }),
  ];
}
