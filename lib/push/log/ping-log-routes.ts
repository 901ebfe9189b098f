import * as z from 'zod';
import { checkParams } from '../../checks/routes.ts';
import { defineRoute } from '../../http/define-route.ts';
import { pageQuery } from '../../http/requests.ts';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import { PING_KINDS } from './ping-items.ts';
import {
  createPingLogService,
  PING_PAGE_BYTES,
  PING_PAGE_DEFAULT,
  PING_PAGE_MAX,
  type PingLogDeps,
} from './ping-log-service.ts';

const tag = 'Push';

const pingSchema = z
  .strictObject({
    id: idSchema('png'),
    at: timestampSchema,
    kind: z.enum(PING_KINDS).meta({
      description:
        'success (the ping URL itself), start (/start), fail (/fail), exit (/<0-255>), log (/log: changes no state)',
    }),
    exit_status: z.number().int().optional().meta({ description: 'exit pings: the status sent (0-255)' }),
    rid: z.string().optional().meta({ description: 'The run id sent as ?rid=' }),
    body: z.string().meta({
      description:
        'The request body as text (at most 100 KB); for read-only keys, the values of secret-looking headers and assignments read ******** (docs/api.md "Ping log")',
    }),
    body_truncated: z.boolean().optional().meta({ description: 'true: the body was cut to 100 KB' }),
    body_over_budget: z.boolean().optional().meta({
      description:
        "true: the account's day of ping bodies was spent, so the body was cut to its first 1 KB (the ping counted as any other)",
    }),
    ignored: z
      .boolean()
      .optional()
      .meta({ description: 'true: the check was paused; the ping was kept and recorded nothing' }),
    method: z.string().meta({ description: 'The HTTP method of the ping: HEAD, GET or POST' }),
    source_ip: z.string(),
    user_agent: z.string(),
    duration_ms: z
      .number()
      .int()
      .optional()
      .meta({ description: 'The end of a run that had a /start: how long the run took' }),
  })
  .meta({ id: 'Ping' });

const pingsQuery = pageQuery(PING_PAGE_MAX, PING_PAGE_DEFAULT);

/** GET /v1/checks/{id}/pings: a push check's ping log, newest first. */
export function pingLogRoutes(deps: PingLogDeps): AuthedRoute[] {
  const pingLog = createPingLogService(deps);
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/pings',
      auth: 'key',
      operationId: 'listCheckPings',
      tag,
      summary: `The pings of a push check, newest first: {pings, next_cursor} (limit 1-${PING_PAGE_MAX}, default ${PING_PAGE_DEFAULT}; a page also ends after ${PING_PAGE_BYTES / 1_000_000} MB of pings)`,
      schemas: {
        params: checkParams,
        query: pingsQuery,
        responses: {
          200: z.strictObject({
            pings: z.array(pingSchema),
            next_cursor: z
              .string()
              .nullable()
              .meta({ description: 'Pass as `cursor` for the next page; null on the last page' }),
          }),
        },
        // A pull check has no ping log.
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, query }) => ok(await pingLog.page(principal, params.id, query)),
    }),
  ];
}
