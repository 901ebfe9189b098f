import * as z from 'zod';
import type { RateLimitGuard } from '../auth/limits.ts';
import type { TenantStore } from '../auth/tenants.ts';
import { defineRoute } from '../http/define-route.ts';
import { parseJsonBody } from '../http/json-body.ts';
import type { HostPolicy } from '../http/origin-policy.ts';
import { pageQuery } from '../http/page-query.ts';
import { publicOrigin } from '../http/public-origin.ts';
import {
  type AuthedRoute,
  created,
  noContent,
  ok,
  type PublicRoute,
  type RouteContext,
} from '../http/types.ts';
import { AccountDisabledError, AppError, ForbiddenError, NotFoundError } from '../platform/errors.ts';
import { ALERT_BOUNDS } from './incoming.ts';
import type { IngestService } from './ingest-service.ts';
import {
  integrationListSchema,
  outsideAlertListSchema,
  publicIntegration,
  publicIntegrationSchema,
  publicOutsideAlert,
} from './integration-responses.ts';
import { integrationBody, integrationParams } from './integration-schemas.ts';
import type { IntegrationService } from './integration-service.ts';
import type { OutsideAlertService } from './outside-alert-service.ts';

const tag = 'Integrations';

/** The largest request a sender may post (docs/integrations.md "Bounds"). */
const INGEST_BODY_LIMIT_BYTES = 512 * 1024;

/** 410: the integration is disabled (its sender should stop, not retry). */
class IntegrationDisabledError extends AppError {
  override name = 'IntegrationDisabledError';
  constructor() {
    super('INTEGRATION_DISABLED', 410, 'this integration is disabled');
  }
}

export interface IntegrationRouteDeps {
  integrations: IntegrationService;
  outsideAlerts: OutsideAlertService;
  ingest: IngestService;
  hosts: HostPolicy;
  limits: Pick<RateLimitGuard, 'attempt' | 'admitIngest'>;
  tenants: Pick<TenantStore, 'getTenant'>;
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

const isUnknown = (error: unknown) => error instanceof NotFoundError;

/** What an ingest handler reads of its request (the path's token, where its path has one). */
type IngestContext = Omit<RouteContext, 'params'> & { params: { token?: string } };

/** The token a request offers in its path or as `Authorization: Bearer`, if it does. */
function headerToken(ctx: IngestContext): string | undefined {
  return ctx.params.token ?? /^Bearer\s+(\S+)\s*$/i.exec(ctx.headers.authorization ?? '')?.[1];
}

/** An Events API v2 body's routing key (read before the integration is known: it names it). */
function routingKey(body: unknown): string | undefined {
  const key = body && typeof body === 'object' ? (body as { routing_key?: unknown }).routing_key : undefined;
  return typeof key === 'string' && key.length <= 128 ? key : undefined;
}

/**
 * One sender's request: the token (from the path or the Authorization header, or for /v2/enqueue
 * the body's routing key; counted per address when wrong), the integration enabled and its tenant
 * active, its own bucket and its tenant's, then the body read by its kind and its alerts stored;
 * 202 once they are. A body is read only after its token is known good, but for the routing key.
 * A refused body stores nothing.
 */
async function ingest(deps: IntegrationRouteDeps, ctx: IngestContext, enqueue: boolean) {
  let body: unknown;
  let token = enqueue ? undefined : headerToken(ctx);
  if (enqueue) {
    body = parseJsonBody(ctx.rawBody);
    token = routingKey(body);
  }
  if (token === undefined) throw new NotFoundError('integration');
  const offered = token;
  const integration = await deps.limits.attempt(
    ctx,
    offered.slice(0, 6),
    () => deps.integrations.byToken(offered),
    isUnknown,
  );
  if (!integration.enabled) throw new IntegrationDisabledError();
  const tenant = await deps.tenants.getTenant(integration.tenant_id);
  if (!tenant) throw new NotFoundError('integration');
  if (tenant.disabled) throw new AccountDisabledError();
  const headers = await deps.limits.admitIngest(integration.id, integration.tenant_id);
  body ??= parseJsonBody(ctx.rawBody);
  const outcome = await deps.ingest.ingest(integration, body, ctx.headers);
  const answer = enqueue
    ? { status: 'success', message: 'Event processed', dedup_key: outcome.dedupKeys[0] ?? null }
    : {
        accepted: outcome.accepted,
        deduplicated: outcome.deduplicated,
        unmatched: outcome.unmatched,
        ignored: outcome.ignored,
        ...(outcome.note ? { note: outcome.note } : {}),
      };
  return { status: 202, body: answer, headers };
}

const ingestAnswer = z.object({
  accepted: z.number().int().optional(),
  deduplicated: z.number().int().optional(),
  unmatched: z.number().int().optional(),
  ignored: z.number().int().optional(),
  note: z.string().optional(),
});
const enqueueAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  dedup_key: z.string().nullable(),
});
const tokenParams = z.object({
  token: z.string().min(1).max(128).meta({ description: 'The integration’s ingest token' }),
});
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
  const ingestRoute = (path: string, operationId: string, enqueue: boolean, params?: z.ZodObject) =>
    defineRoute({
      method: 'POST',
      path,
      auth: 'none',
      limit: 'credential',
      body: 'raw',
      maxBodyBytes: INGEST_BODY_LIMIT_BYTES,
      operationId,
      tag,
      summary: enqueue
        ? 'PagerDuty Events API v2: trigger, acknowledge or resolve an outside alert (routing_key in the body)'
        : `An outside alert sender posts here (its kind's body; at most ${ALERT_BOUNDS.alertsPerRequest} alerts, 512 KB)`,
      schemas: {
        ...(params ? { params } : {}),
        rawBody: { contentType: 'application/json', schema: z.unknown() },
        responses: { 202: enqueue ? enqueueAnswer : ingestAnswer },
        errors: [
          'VALIDATION_ERROR',
          'UNAUTHORIZED',
          'ACCOUNT_DISABLED',
          'INTEGRATION_DISABLED',
          'PAYLOAD_TOO_LARGE',
          'RATE_LIMITED',
        ],
      },
      handler: (ctx) => ingest(deps, ctx, enqueue),
    });
  return {
    open: [
      ingestRoute('/in/{token}', 'ingestOutsideAlerts', false, tokenParams),
      ingestRoute('/in', 'ingestOutsideAlertsBearer', false),
      ingestRoute('/v2/enqueue', 'enqueueOutsideAlert', true),
    ],
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
          errors: ['LIMIT_EXCEEDED'],
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
          'Replace an integration’s name, rules, severity words and settings (its kind and token stay)',
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
        schemas: { params: integrationParams, responses: { 204: null } },
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
