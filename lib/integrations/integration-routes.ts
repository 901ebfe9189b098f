import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import type { HostPolicy } from '../http/origin-policy.ts';
import { publicOrigin } from '../http/policies.ts';
import { pageQuery } from '../http/requests.ts';
import {
  type AuthedRoute,
  created,
  noContent,
  ok,
  type PublicRoute,
  type RouteContext,
} from '../http/types.ts';
import { ForbiddenError } from '../platform/errors.ts';
import { type IngestRouteDeps, ingestRoutes } from './ingest-routes.ts';
import {
  integrationListSchema,
  outsideAlertListSchema,
  payloadListSchema,
  publicIntegration,
  publicIntegrationSchema,
  publicOutsideAlert,
  publicPayload,
} from './manage/integration-responses.ts';
import { integrationBody, integrationParams } from './manage/integration-schemas.ts';
import type { OutsideAlertService } from './manage/outside-alert-service.ts';

const tag = 'Integrations';

export interface IntegrationRouteDeps extends IngestRouteDeps {
  outsideAlerts: OutsideAlertService;
  hosts: HostPolicy;
}

/** The origin ingest URLs are shown under, or null when this request's Host is not one the server answers. */
function originOf(hosts: HostPolicy, ctx: Pick<RouteContext, 'headers' | 'platformHost'>): string | null {
  try {
    return publicOrigin(hosts, ctx);
  } catch (error) {
    if (error instanceof ForbiddenError) return null;
    throw error;
  }
}

const outsideQuery = pageQuery(100).extend({
  entity_id: z.string().min(1).max(64).optional(),
  status: z
    .enum(['open', 'triggered', 'acknowledged', 'resolved'])
    .optional()
    .meta({ description: '`open`: triggered or acknowledged' }),
});

/** /v1/integrations, /v1/outside-alerts (keyed) and the senders' /in and /v2/enqueue (keyless). */
export function integrationRoutes(deps: IntegrationRouteDeps): {
  authed: AuthedRoute[];
  open: PublicRoute[];
} {
  const { integrations } = deps;
  const shown = (ctx: RouteContext, record: Parameters<typeof publicIntegration>[0], token?: string) =>
    publicIntegration(record, originOf(deps.hosts, ctx), token);
  return {
    open: ingestRoutes(deps),
    authed: [
      defineRoute({
        method: 'GET',
        path: '/v1/integrations',
        auth: 'key',
        operationId: 'listIntegrations',
        tag,
        summary: 'The tenant’s integrations (never their tokens)',
        schemas: { responses: { 200: integrationListSchema } },
        handler: async (ctx) =>
          ok({ integrations: (await integrations.list(ctx.principal.tenantId)).map((r) => shown(ctx, r)) }),
      }),
      defineRoute({
        method: 'POST',
        path: '/v1/integrations',
        auth: 'key',
        role: 'admin',
        operationId: 'createIntegration',
        tag,
        summary: 'Create an integration: its own entity, its ingest URL and token (shown once)',
        schemas: {
          body: integrationBody,
          responses: { 201: publicIntegrationSchema },
          errors: ['LIMIT_EXCEEDED', 'CONFLICT'],
        },
        handler: async (ctx) => {
          const { record, token } = await integrations.create(ctx.principal.tenantId, ctx.body);
          return created(shown(ctx, record, token));
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/integrations/{id}',
        auth: 'key',
        operationId: 'getIntegration',
        tag,
        summary: 'One integration (never its token)',
        schemas: { params: integrationParams, responses: { 200: publicIntegrationSchema } },
        handler: async (ctx) => ok(shown(ctx, await integrations.get(ctx.principal.tenantId, ctx.params.id))),
      }),
      defineRoute({
        method: 'PUT',
        path: '/v1/integrations/{id}',
        auth: 'key',
        role: 'admin',
        operationId: 'replaceIntegration',
        tag,
        summary:
          'Replace an integration’s name, rules, severity words and settings (its kind stays; its token too, unless the body gives one)',
        schemas: {
          params: integrationParams,
          body: integrationBody,
          responses: { 200: publicIntegrationSchema },
          errors: ['CONFLICT'],
        },
        handler: async (ctx) =>
          ok(shown(ctx, await integrations.replace(ctx.principal.tenantId, ctx.params.id, ctx.body))),
      }),
      defineRoute({
        method: 'DELETE',
        path: '/v1/integrations/{id}',
        auth: 'key',
        role: 'admin',
        operationId: 'deleteIntegration',
        tag,
        summary: 'Delete an integration, its token, its own entity and its outside checks',
        schemas: { params: integrationParams, responses: { 204: null }, errors: ['CONFLICT'] },
        handler: async (ctx) => {
          await integrations.remove(ctx.principal.tenantId, ctx.params.id);
          return noContent();
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/v1/integrations/{id}/token',
        auth: 'key',
        role: 'admin',
        operationId: 'rotateIntegrationToken',
        tag,
        summary: 'A new ingest token (shown once); the old one stops working at once',
        schemas: {
          params: integrationParams,
          // Nothing to send: an empty body or {}.
          body: z.strictObject({}).optional(),
          responses: { 200: publicIntegrationSchema },
          errors: ['CONFLICT'],
        },
        handler: async (ctx) => {
          const { record, token } = await integrations.rotateToken(ctx.principal.tenantId, ctx.params.id);
          return ok(shown(ctx, record, token));
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/integrations/{id}/payloads',
        auth: 'key',
        operationId: 'listIntegrationPayloads',
        tag,
        summary: 'The last 50 requests the integration received, newest first, with what each became',
        schemas: { params: integrationParams, responses: { 200: payloadListSchema } },
        handler: async (ctx) => {
          const integration = await integrations.get(ctx.principal.tenantId, ctx.params.id);
          return ok({ payloads: (await deps.payloads.list(integration)).map(publicPayload) });
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/outside-alerts',
        auth: 'key',
        operationId: 'listOutsideAlerts',
        tag,
        summary: 'Outside alerts, newest heard first: of one entity or all, by status',
        schemas: { query: outsideQuery, responses: { 200: outsideAlertListSchema } },
        handler: async (ctx) => {
          const page = await deps.outsideAlerts.list(ctx.principal.tenantId, ctx.query);
          return ok({ alerts: page.alerts.map(publicOutsideAlert), next_cursor: page.nextCursor });
        },
      }),
    ],
  };
}
