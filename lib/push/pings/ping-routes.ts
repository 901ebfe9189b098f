import { createHash } from 'node:crypto';
import * as z from 'zod';
import { keyPrefix } from '../../auth/api-key.ts';
import type { RateLimitGuard } from '../../auth/limits.ts';
import type { TenantStore } from '../../auth/tenants.ts';
import { defineRoute } from '../../http/define-route.ts';
import type { PublicRoute, RouteContext } from '../../http/types.ts';
import { AccountDisabledError, AppError, NotFoundError } from '../../platform/errors.ts';
import { PING_BODY_LIMIT_BYTES, PING_BODY_OVER_BUDGET_BYTES } from '../log/ping-items.ts';
import { readRunId } from '../tokens/ping-token.ts';
import { type PushTokenService, UnknownPingTokenError, UnknownSlugError } from '../tokens/token-service.ts';
import { type PingUrl, pingBody, readPingUrl, USER_AGENT_LIMIT } from './ping-request.ts';
import { createPingService, type PingService, type PingServiceDeps } from './ping-service.ts';
import type { PingTarget, SlugResolver } from './ping-target.ts';
import { createPingTenants } from './ping-tenants.ts';

export interface PingRouteDeps extends PingServiceDeps {
  pushTokens: PushTokenService;
  /**
   * Failed token lookups per source address, failed slug lookups per ping key; pings per check
   * (no tenant ceiling: a tenant's cron jobs all ping at the top of the hour); the tenant's day of
   * ping bodies.
   */
  limits: Pick<RateLimitGuard, 'attempt' | 'attemptPingKey' | 'admitPing' | 'admitPingBody'>;
  tenants: Pick<TenantStore, 'getTenant'>;
  /** Resolves slug URLs (`/ping/<ping key>/<slug>`); without one they answer 404 `not found`. */
  slugs?: SlugResolver | undefined;
}

/** A refusal in the Pinging API's words (text bodies, as Healthchecks answers). */
class PingRefused extends Error {
  readonly status: number;
  readonly text: string;
  constructor(status: number, text: string) {
    super(text);
    this.status = status;
    this.text = text;
  }
}

const isUnknown = (error: unknown) => error instanceof UnknownPingTokenError;
const isUnknownSlug = (error: unknown) => error instanceof UnknownSlugError;

/** A ping key's guess bucket: named by a digest, so the bucket's name holds nothing of the key. */
const pingKeyBucket = (pingKey: string) =>
  `PINGKEY#${createHash('sha256').update(pingKey, 'utf8').digest('base64url').slice(0, 16)}`;

/** Every ping answer: text, never cached (each ping is a report), the body limit as Healthchecks states it. */
const PING_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'no-store',
  'ping-body-limit': String(PING_BODY_LIMIT_BYTES),
};

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { ...PING_HEADERS, ...headers } });

/** Errors as text: 404 `not found` for anything unknown, others with their status, message and headers. */
function refusal(error: unknown): Response {
  if (error instanceof PingRefused) return text(error.status, error.text);
  if (error instanceof NotFoundError) return text(404, 'not found');
  if (error instanceof AppError && error.expose) return text(error.status, error.message, error.headers);
  throw error;
}

/** The check a ping URL names, under the failed-authentication limits (a wrong token or key counts). */
async function target(deps: PingRouteDeps, ctx: RouteContext, url: PingUrl): Promise<PingTarget> {
  if (url.form === 'token') {
    const token = await deps.limits.attempt(
      ctx,
      keyPrefix(url.token),
      () => deps.pushTokens.verify(url.token),
      isUnknown,
    );
    return { tenantId: token.tenant_id, checkId: token.check_id };
  }
  // Healthchecks refuses an upper-case slug before looking anything up.
  if (url.slug !== url.slug.toLowerCase()) throw new PingRefused(400, 'invalid url format');
  const { slugs } = deps;
  if (!slugs) throw new UnknownPingTokenError();
  // A wrong slug of a valid key also counts for that key, from every address together.
  return deps.limits.attempt(
    ctx,
    keyPrefix(url.pingKey),
    () =>
      deps.limits.attemptPingKey(
        pingKeyBucket(url.pingKey),
        () => slugs.resolve(ctx, url.pingKey, url.slug, { create: ctx.query.create === '1' }),
        isUnknownSlug,
      ),
    isUnknown,
  );
}

/**
 * One ping, in Healthchecks' order (hc/api/views.py `ping`): the URL's form (404), its check (404
 * `not found`, counted as a failed authentication), an exit status above 255 (400 `invalid url
 * format`), `?rid=` not a UUID (400 `invalid uuid format`); then the ping is spent from its
 * check's bucket (every ping URL of the check shares it), and recorded. 200 `OK`; 201 `Created` when
 * `?create=1` made the check.
 */
async function ping(
  deps: PingRouteDeps & { pings: PingService; tenantOf: ReturnType<typeof createPingTenants> },
  ctx: RouteContext,
  segments: string[],
): Promise<Response> {
  try {
    const url = readPingUrl(segments);
    if (!url) throw new PingRefused(404, 'not found');
    const found = await target(deps, ctx, url);
    const tenant = await deps.tenantOf(found.tenantId);
    if (!tenant) throw new UnknownPingTokenError();
    if (tenant.disabled) throw new AccountDisabledError();
    const { exitStatus } = url.action;
    if (exitStatus !== undefined && exitStatus > 255) throw new PingRefused(400, 'invalid url format');
    const rid = ctx.query.rid === undefined ? undefined : readRunId(ctx.query.rid);
    if (ctx.query.rid !== undefined && rid === undefined) throw new PingRefused(400, 'invalid uuid format');
    const headers = await deps.limits.admitPing(found.checkId);
    const kept = pingBody(ctx.rawBody);
    // Past the tenant's day of ping bodies the body is cut, the ping itself still counts.
    const fits = await deps.limits.admitPingBody(found.tenantId, Buffer.byteLength(kept.body));
    const { body, truncated } = fits ? kept : pingBody(ctx.rawBody, PING_BODY_OVER_BUDGET_BYTES);
    await deps.pings.record({
      tenantId: found.tenantId,
      checkId: found.checkId,
      ...url.action,
      rid,
      body,
      bodyTruncated: truncated,
      bodyOverBudget: !fits,
      // The router answers HEAD with the GET route: the log keeps what was sent.
      method: ctx.requestMethod ?? ctx.method,
      sourceIp: ctx.sourceIp ?? '',
      userAgent: (ctx.headers['user-agent'] ?? '').slice(0, USER_AGENT_LIMIT),
      retentionDays: tenant.retention_days,
    });
    return found.created ? text(201, 'Created', headers) : text(200, 'OK', headers);
  } catch (error) {
    return refusal(error);
  }
}

const tokenParam = z.string().meta({
  description: 'The ping token (a UUID; legacy `vpt_` tokens keep working), or a ping key in slug URLs',
});
const suffixParam = z.string().meta({
  description:
    "`start`, `fail`, `log` or an exit status 0-255 after a token; the check's slug after a ping key",
});
const query = z.object({
  // Not parsed here: a rid that is no UUID answers 400 `invalid uuid format` in text, as Healthchecks.
  rid: z.string().optional().meta({
    description: 'A UUID naming the run (pairs a /start with its end)',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  }),
  create: z
    .string()
    .optional()
    .meta({ description: 'Slug URLs: `1` creates the push check when the slug names none (201 `Created`)' }),
});
const plain = (description: string) => ({ description, contentType: 'text/plain', schema: z.string() });
const FORMS = [
  { path: '/ping/{token}', id: 'Ping', params: z.object({ token: tokenParam }), what: 'a success' },
  {
    path: '/ping/{token}/{suffix}',
    id: 'PingSuffix',
    params: z.object({ token: tokenParam, suffix: suffixParam }),
    what: "a start, failure, log entry or exit status (or, after a ping key, a success of the slug's check)",
  },
  {
    path: '/ping/{token}/{slug}/{suffix}',
    id: 'PingSlugSuffix',
    params: z.object({ token: tokenParam, slug: z.string(), suffix: suffixParam }),
    what: 'a start, failure, log entry or exit status of the check a slug names',
  },
] as const;

/**
 * The Pinging API (docs/heartbeats.md): HEAD, GET and POST on every form; no API key (the token or
 * the ping key is the credential). Answers are text, as Healthchecks gives them.
 */
export function pingRoutes(routeDeps: PingRouteDeps): PublicRoute[] {
  const deps = { ...routeDeps, pings: createPingService(routeDeps), tenantOf: createPingTenants(routeDeps) };
  return FORMS.flatMap((form) =>
    (['GET', 'POST'] as const).map((method) =>
      defineRoute({
        method,
        path: form.path,
        auth: 'none',
        limit: 'credential',
        // Any content type: a POST body is kept as text with the ping (at most 100 KB).
        body: 'raw',
        // Another method (PUT, DELETE…) is refused in text too, as every ping answer is.
        textRefusalHeaders: PING_HEADERS,
        operationId: `${method === 'GET' ? 'get' : 'post'}${form.id}`,
        tag: 'Push',
        summary: `Report ${form.what} to a push check (no API key)`,
        schemas: {
          params: form.params,
          query,
          responses: {
            200: plain('`OK`: the ping was recorded (or kept, for a paused check)'),
            201: plain('`Created`: `?create=1` made the check'),
          },
          otherErrors: {
            400: plain(
              '`invalid url format` (an exit status above 255, an upper-case slug) or `invalid uuid format` (`rid`)',
            ),
            403: plain('The account is disabled'),
            404: plain('`not found`: no such ping URL'),
            429: plain('Too many pings, or too many failed attempts from this address'),
          },
        },
        handler: (ctx) => {
          const p: Record<string, string | undefined> = ctx.params;
          return ping(
            deps,
            ctx,
            [p.token, p.slug, p.suffix].filter((s) => s !== undefined),
          );
        },
      }),
    ),
  );
}
