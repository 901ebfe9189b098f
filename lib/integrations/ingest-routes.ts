import * as z from 'zod';
import type { RateLimitGuard } from '../auth/limits.ts';
import type { TenantStore } from '../auth/tenants.ts';
import { defineRoute } from '../http/define-route.ts';
import { parseJsonBody } from '../http/requests.ts';
import type { PublicRoute, RouteContext } from '../http/types.ts';
import { AccountDisabledError, AppError, NotFoundError } from '../platform/errors.ts';
import type { IngestOutcome, IngestService } from './ingest/ingest-service.ts';
import type { PayloadLog } from './ingest/payload-log.ts';
import type { PayloadRecord } from './items/payload-log-items.ts';
import { ALERT_BOUNDS } from './kinds/incoming.ts';
import type { IntegrationService } from './manage/integration-service.ts';

/**
 * The senders' routes (docs/integrations.md): POST /in/{token}, /in with `Authorization: Bearer`,
 * and PagerDuty's /v2/enqueue with the routing key in the body. No API key: the token is the
 * credential, checked under the failed-authentication limits before anything else is read.
 */

const tag = 'Integrations';

export interface IngestRouteDeps {
  integrations: IntegrationService;
  ingest: IngestService;
  payloads: PayloadLog;
  limits: Pick<RateLimitGuard, 'attempt' | 'admitIngest'>;
  tenants: Pick<TenantStore, 'getTenant'>;
}

/** The largest request a sender may post (docs/integrations.md "Bounds"). */
const INGEST_BODY_LIMIT_BYTES = 512 * 1024;

/** 410: the integration is disabled (its sender should stop, not retry). */
class IntegrationDisabledError extends AppError {
  override name = 'IntegrationDisabledError';
  constructor() {
    super('INTEGRATION_DISABLED', 410, 'this integration is disabled');
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
async function ingest(deps: IngestRouteDeps, ctx: IngestContext, enqueue: boolean) {
  let body: unknown;
  let token = enqueue ? undefined : headerToken(ctx);
  if (enqueue) {
    body = parseJsonBody(ctx.rawBody);
    token = routingKey(body);
  }
  const offered = token;
  // A request naming no token is a wrong one too: a blocked address is refused first (429), and
  // the miss counts against it.
  const integration = await deps.limits.attempt(
    ctx,
    offered?.slice(0, 6) ?? '',
    () =>
      offered === undefined
        ? Promise.reject(new NotFoundError('integration'))
        : deps.integrations.byToken(offered),
    isUnknown,
  );
  if (!integration.enabled) throw new IntegrationDisabledError();
  const tenant = await deps.tenants.getTenant(integration.tenant_id);
  if (!tenant) throw new NotFoundError('integration');
  if (tenant.disabled) throw new AccountDisabledError();
  const headers = await deps.limits.admitIngest(integration.id, integration.tenant_id);
  const log = (outcome: PayloadRecord['outcome'], detail: string) =>
    deps.payloads.log(integration, ctx.rawBody, outcome, detail);
  let outcome: IngestOutcome;
  try {
    body ??= parseJsonBody(ctx.rawBody);
    outcome = await deps.ingest.ingest(integration, body, ctx.headers);
  } catch (error) {
    // What the sender sent wrong is logged with its reason; a failure of ours is not its payload's.
    if (error instanceof AppError && error.status < 500)
      await log('refused', `${error.status}: ${error.message}`);
    throw error;
  }
  await log(...payloadOutcome(outcome));
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

/** A request's line in the payload log: what it became, and the counts and reasons in words. */
function payloadOutcome(o: IngestOutcome): [PayloadRecord['outcome'], string] {
  if (o.note !== undefined) return [o.note.startsWith('subscribed') ? 'confirmed' : 'ignored', o.note];
  const counts = `${o.accepted} accepted, ${o.deduplicated} deduplicated, ${o.unmatched} unmatched, ${o.ignored} ignored`;
  const why = [
    ...o.unmatchedWhy,
    ...o.gaveWay.map((key) => `${key}: gave way, the integration holds its most open alerts`),
  ];
  const detail = why.length > 0 ? `${counts} (${why.join('; ')})` : counts;
  if (o.unmatched > 0) return ['unmatched', detail];
  if (o.accepted > 0) return ['accepted', detail];
  return [o.deduplicated > 0 ? 'deduplicated' : 'ignored', detail];
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
/** The three ways in, one route each. */
export function ingestRoutes(deps: IngestRouteDeps): PublicRoute[] {
  const route = (path: string, operationId: string, enqueue: boolean, params?: z.ZodObject) =>
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
          'NOT_FOUND',
          'ACCOUNT_DISABLED',
          'INTEGRATION_DISABLED',
          'PAYLOAD_TOO_LARGE',
          'RATE_LIMITED',
        ],
      },
      handler: (ctx) => ingest(deps, ctx, enqueue),
    });
  return [
    route('/in/{token}', 'ingestOutsideAlerts', false, tokenParams),
    route('/in', 'ingestOutsideAlertsBearer', false),
    route('/v2/enqueue', 'enqueueOutsideAlert', true),
  ];
}
