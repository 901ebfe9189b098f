import * as z from 'zod';
import { checkParams } from '../../checks/routes.ts';
import { defineRoute } from '../../http/define-route.ts';
import { pageQuery } from '../../http/requests.ts';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import { RUN_FLAGS, RUN_OUTCOMES } from './run-items.ts';
import { createRunLogService, RUN_PAGE_DEFAULT, RUN_PAGE_MAX, type RunLogDeps } from './run-log.ts';

const runSchema = z
  .strictObject({
    id: idSchema('run'),
    started_at: timestampSchema
      .nullable()
      .meta({ description: 'The /start; null for a run that reported only its end' }),
    ended_at: timestampSchema
      .nullable()
      .meta({ description: 'The end (success, /fail or exit status); null while running' }),
    duration_ms: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'end − start; null without a start (a run of unknown duration) or an end' }),
    outcome: z.enum(RUN_OUTCOMES).meta({
      description:
        "success (a success or /0), fail (/fail), exit (a non-zero exit status), running, hung (started and not ended within the time a run may take or max_duration_seconds, or silent past keepalive_seconds: closed so by the dead man's switch), missed (an expected run that never started: ended_at is the deadline it was told at)",
    }),
    exit_status: z.number().int().optional().meta({ description: 'The exit status sent (/<0-255>)' }),
    rid: z.string().optional().meta({ description: 'The run id sent as ?rid=' }),
    log_excerpt: z.string().optional().meta({
      description:
        "The last 1,000 characters of the run's output (its end's body, else its latest /log's); redacted for read-only keys as ping bodies are",
    }),
    flags: z.array(z.enum(RUN_FLAGS)).meta({
      description:
        'What the run rules found: too_short (min_duration_seconds: a failed result), too_long (max_duration_seconds), overlap (overlap: alert), early (early_seconds), hung; anomalous_duration, anomalous_start: far outside the learned normal (a degraded result)',
    }),
  })
  .meta({ id: 'Run' });

const quantiles = (unit: 'ms' | 's', what: string) =>
  z
    .strictObject({
      [`p5_${unit}`]: z.number().int(),
      [`p50_${unit}`]: z.number().int(),
      [`p95_${unit}`]: z.number().int(),
    })
    .nullable()
    .meta({ description: `${what}; null before any run` });

const normalSchema = z
  .strictObject({
    runs_seen: z.number().int().meta({
      description: 'The successful runs with a /start it was learned from (the newest of the last 100 runs)',
    }),
    duration: quantiles('ms', "The 5th, 50th and 95th percentiles of the runs' durations"),
    start_offset: quantiles(
      's',
      "How far a scheduled check's runs start from their nearest scheduled time (negative: before it); null without a schedule",
    ),
    active: z.boolean().meta({
      description:
        'Whether it flags runs far outside it (degraded): once 20 runs were seen, unless learn is false',
    }),
  })
  .meta({ id: 'RunNormal' });

/** GET /v1/checks/{id}/runs: a push check's runs, newest first; GET /v1/checks/{id}/normal: its learned normal. */
export function runRoutes(deps: RunLogDeps): AuthedRoute[] {
  const runs = createRunLogService(deps);
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/runs',
      auth: 'key',
      operationId: 'listCheckRuns',
      tag: 'Push',
      summary: `The runs of a push check, newest first: {runs, next_cursor} (limit 1-${RUN_PAGE_MAX}, default ${RUN_PAGE_DEFAULT})`,
      schemas: {
        params: checkParams,
        query: pageQuery(RUN_PAGE_MAX, RUN_PAGE_DEFAULT),
        responses: {
          200: z.strictObject({
            runs: z.array(runSchema),
            next_cursor: z
              .string()
              .nullable()
              .meta({ description: 'Pass as `cursor` for the next page; null on the last page' }),
          }),
        },
        // A pull check has no runs.
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, query }) => ok(await runs.page(principal, params.id, query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/normal',
      auth: 'key',
      operationId: 'getCheckNormal',
      tag: 'Push',
      summary:
        "A push check's learned normal: its runs' duration and start offset quantiles and whether it flags runs",
      schemas: {
        params: checkParams,
        responses: { 200: normalSchema },
        // A pull check has no runs.
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params }) => ok(await runs.normal(principal, params.id)),
    }),
  ];
}
