import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { answerCreated, answerOk, deleteRoute } from '../../http/handlers.ts';
import { idSchema, queryInteger, timestampSchema } from '../../http/route-schemas.ts';
import type { AuthedRoute } from '../../http/types.ts';
import { pageParams } from '../items/request-schemas.ts';
import {
  SUBSCRIBER_ID,
  SUBSCRIBER_KINDS,
  SUBSCRIBER_LIMITS,
  SUBSCRIBER_STATES,
} from '../items/subscriber-items.ts';
import { FAILURES_SHOWN, IMPORT_LIMITS, type SubscriberAdmin } from './subscriber-admin.ts';

/** A page's subscribers for its tenant (members write, read-only keys read; the router audits the writes). */

const tag = 'Status pages';
const base = '/v1/status-pages/{slug}/subscribers';

const components = z
  .union([z.literal('all'), z.array(idSchema('ent')).min(1).max(SUBSCRIBER_LIMITS.components)])
  .meta({ description: '`all`, or the ids of the page’s entities the subscriber is told about' });

const subscriberSchema = z.strictObject({
  id: z.string(),
  page: z.string(),
  kind: z.enum(SUBSCRIBER_KINDS),
  address: z
    .string()
    .nullable()
    .meta({ description: 'The email address (for a webhook, the one that confirmed it)' }),
  url: z.string().nullable(),
  components,
  state: z.enum(SUBSCRIBER_STATES),
  source: z.enum(['public', 'import', 'api']),
  created_at: timestampSchema,
  confirmed_at: timestampSchema.nullable(),
});

const listQuery = z.object({
  limit: queryInteger(1, 100)
    .default(50)
    .meta({ description: 'Page size: an integer from 1 to 100; default 50' }),
  cursor: z
    .string()
    .regex(SUBSCRIBER_ID)
    .optional()
    .meta({ description: 'The next_cursor of the previous page' }),
  state: z.enum(SUBSCRIBER_STATES).optional().meta({ description: 'Only subscribers in this state' }),
});

const subscriberParams = pageParams.extend({
  subscriber_id: z.string().regex(SUBSCRIBER_ID).meta({ description: 'A subscriber of the page' }),
});

const webhookBody = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .max(SUBSCRIBER_LIMITS.url)
    .meta({ description: 'The URL to POST each notice to' }),
  components: components.default('all'),
});

export function subscriberAdminRoutes(deps: { admin: SubscriberAdmin }): AuthedRoute[] {
  const { admin } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: base,
      auth: 'key',
      operationId: 'listPageSubscribers',
      tag,
      summary: 'A status page’s subscribers by id, optionally in one state: {subscribers, next_cursor}',
      schemas: {
        params: pageParams,
        query: listQuery,
        responses: {
          200: z.strictObject({ subscribers: z.array(subscriberSchema), next_cursor: z.string().nullable() }),
        },
      },
      handler: answerOk((tenantId, { params, query }) => admin.list(tenantId, params.slug, query)),
    }),
    defineRoute({
      method: 'GET',
      path: `${base}.csv`,
      auth: 'key',
      operationId: 'exportPageSubscribers',
      tag,
      summary:
        'Every subscriber of a status page as CSV (id, kind, address, url, components, state, source, times)',
      schemas: { params: pageParams, responses: { 200: { contentType: 'text/csv', schema: z.string() } } },
      handler: async ({ principal, params }) =>
        new Response(await admin.exportCsv(principal.tenantId, params.slug), {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="${params.slug}-subscribers.csv"`,
            'cache-control': 'no-store',
          },
        }),
    }),
    defineRoute({
      method: 'POST',
      path: base,
      auth: 'key',
      operationId: 'createPageWebhookSubscriber',
      tag,
      summary:
        'Add a webhook subscriber (confirmed at once: the tenant vouches for it); the answer carries its signing secret, once',
      schemas: {
        params: pageParams,
        body: webhookBody,
        responses: { 201: subscriberSchema.extend({ secret: z.string() }) },
        errors: ['CONFLICT'],
      },
      handler: answerCreated((tenantId, { params, body }) => admin.addWebhook(tenantId, params.slug, body)),
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/import`,
      auth: 'key',
      body: 'raw',
      operationId: 'importPageSubscribers',
      tag,
      summary: `Import email subscribers from a CSV (columns email, components; at most ${IMPORT_LIMITS.rows} rows): each gets a confirmation email`,
      schemas: {
        params: pageParams,
        rawBody: { contentType: 'text/csv', schema: z.string() },
        responses: {
          200: z.strictObject({
            queued: z.number().int(),
            rejected_count: z.number().int(),
            rejected: z.array(z.strictObject({ row: z.number().int(), reason: z.string() })),
          }),
        },
        errors: ['VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE'],
      },
      handler: answerOk((tenantId, { params, rawBody }) => admin.importCsv(tenantId, params.slug, rawBody)),
    }),
    deleteRoute({
      path: `${base}/{subscriber_id}`,
      operationId: 'deletePageSubscriber',
      tag,
      summary: 'Remove a subscriber of a status page',
      params: subscriberParams,
      remove: (tenantId, params) => admin.remove(tenantId, params.slug, params.subscriber_id),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/status-pages/{slug}/incidents/{incident_id}/notices',
      auth: 'key',
      operationId: 'listPageIncidentNotices',
      tag,
      summary:
        'Each update’s notices to subscribers: how many were sent, failed and skipped, and the failed ones',
      schemas: {
        params: pageParams.extend({ incident_id: idSchema('pin') }),
        responses: {
          200: z.strictObject({
            updates: z.array(
              z.strictObject({
                update_id: z.string(),
                notify: z.boolean(),
                sent: z.number().int(),
                failed: z
                  .number()
                  .int()
                  .meta({ description: 'Notices that failed after their last attempt.' }),
                skipped: z.number().int(),
                failures: z
                  .array(
                    z.strictObject({
                      subscriber_id: z.string(),
                      kind: z.enum(SUBSCRIBER_KINDS).nullable().meta({
                        description: 'null: the subscriber was removed since.',
                      }),
                      to: z.string().nullable().meta({
                        description:
                          'The email address, or the webhook URL’s origin (never its path or query).',
                      }),
                      attempts: z.number().int(),
                      error: z.string().nullable().meta({ description: 'The last attempt’s error.' }),
                      at: timestampSchema,
                    }),
                  )
                  .meta({
                    description: `The notices that failed after their last attempt, by subscriber id (at most ${FAILURES_SHOWN}).`,
                  }),
              }),
            ),
          }),
        },
      },
      handler: answerOk((tenantId, { params }) => admin.notices(tenantId, params.slug, params.incident_id)),
    }),
  ];
}
