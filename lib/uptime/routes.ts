import * as z from 'zod';
import { slugSchema } from '../domain/formats.ts';
import { defineRoute } from '../http/define-route.ts';
import { answerOk } from '../http/handlers.ts';
import { idSchema, namesResource } from '../http/route-schemas.ts';
import { type AuthedRoute, ok } from '../http/types.ts';
import { UPTIME_WINDOWS, type UptimeService } from './uptime-service.ts';

/** GET /v1/checks/{id}/uptime and GET /v1/blueprints/{bp}/entities/{slug}/uptime. */

const uptimeQuery = z.object({
  window: z.enum(UPTIME_WINDOWS).default('24h').meta({
    description:
      '24h: the last 24 hours (5-minute rollups); 7d, 30d, 90d: that many UTC days, today included (daily rollups). Default 24h',
  }),
});

const nullableMs = z.number().int().min(0).nullable();

const uptimeSchema = z
  .strictObject({
    window: z.enum(UPTIME_WINDOWS),
    uptime_ratio: z.number().min(0).max(1).nullable().meta({
      description:
        'Successful results / results in the window (results-based), 5 decimals; null without results',
    }),
    results: z.number().int().min(0),
    failures: z.number().int().min(0),
    downtime_seconds: z.number().int().min(0).meta({
      description: 'Time in the window spent down or degraded (from transitions; an entity: its incidents)',
    }),
    incidents: z.number().int().min(0).meta({ description: 'Spells of downtime that started in the window' }),
    mttr_seconds: nullableMs.meta({
      description: 'Mean length of the spells that started and ended in the window; null when none did',
    }),
    latency_ms: z.strictObject({ p50: nullableMs, p95: nullableMs, p99: nullableMs }).meta({
      description: 'Latency percentiles of every result (failures too), from rollup histograms (within ~9%)',
    }),
    slo_target: z
      .number()
      .gt(0)
      .lt(1)
      .optional()
      .meta({ description: "The check's slo_target, when it has one" }),
    error_budget_remaining: z.number().nullable().optional().meta({
      description:
        '1 - (1 - uptime_ratio) / (1 - slo_target), 5 decimals: 1 untouched, 0 spent, negative when overspent (not clamped); null without results',
    }),
    days: z
      .array(
        z.strictObject({
          date: z.iso.date(),
          uptime_ratio: z.number().min(0).max(1).nullable(),
        }),
      )
      .optional()
      .meta({
        description:
          'The daily windows (7d, 30d, 90d) only: each UTC day of the window, oldest first (today last), with its uptime_ratio (null: no result that day)',
      }),
    locations: z
      .array(
        z
          .strictObject({
            location: z
              .string()
              .meta({ description: 'A location name the check is probed from (or was, in the window)' }),
            uptime_percent: z.number().min(0).max(100).nullable().meta({
              description:
                'up / total × 100, 3 decimals; null when the location reported nothing in the window',
            }),
            up: z
              .number()
              .int()
              .min(0)
              .meta({ description: 'Slots the location found up (a degraded success is up)' }),
            total: z.number().int().min(0).meta({ description: 'Slots the location reported' }),
          })
          .meta({ id: 'LocationUptime' }),
      )
      .optional()
      .meta({
        description:
          "A located check only (locations other than [\"default\"]): each location's own reports over the window's UTC days, the first and last counted whole; the check's locations first, in its order, then any it no longer names that reported in the window",
      }),
  })
  .meta({ id: 'Uptime' });

const checkParams = z.object({ id: idSchema('chk') });
const entityParams = z.object({
  blueprint_slug: namesResource(slugSchema(), 'blueprint'),
  slug: namesResource(slugSchema(), 'entity'),
});

export function uptimeRoutes(deps: { uptime: UptimeService }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/uptime',
      auth: 'key',
      operationId: 'getCheckUptime',
      expensive: true,
      tag: 'Checks',
      summary:
        'Uptime, downtime, incidents, MTTR, latency percentiles and error budget of a check over a window',
      schemas: { params: checkParams, query: uptimeQuery, responses: { 200: uptimeSchema } },
      handler: answerOk((tenantId, { params, query }) =>
        deps.uptime.checkUptime(tenantId, params.id, query.window),
      ),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/blueprints/{blueprint_slug}/entities/{slug}/uptime',
      auth: 'key',
      operationId: 'getEntityUptime',
      expensive: true,
      tag: 'Catalog',
      summary: "Uptime of an entity over a window: its checks' results summed; downtime from its incidents",
      schemas: { params: entityParams, query: uptimeQuery, responses: { 200: uptimeSchema } },
      handler: async ({ principal, params, query }) =>
        ok(
          await deps.uptime.entityUptimeBySlug(
            principal.tenantId,
            params.blueprint_slug,
            params.slug,
            query.window,
          ),
        ),
    }),
  ];
}
