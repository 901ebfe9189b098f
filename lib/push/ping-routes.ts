import * as z from 'zod';
import { keyPrefix } from '../auth/api-key.ts';
import type { RateLimitGuard } from '../auth/rate-limit.ts';
import type { TenantStore } from '../auth/tenant-store.ts';
import { publicResultSchema } from '../checks/responses.ts';
import { defineRoute } from '../http/define-route.ts';
import type { PublicRoute, Reply, RouteContext } from '../http/types.ts';
import { AccountDisabledError } from '../platform/errors.ts';
import type { PushService } from './push-service.ts';
import { type PushTokenService, UnknownPingTokenError } from './token-service.ts';

export interface PingRouteDeps {
  pushService: PushService;
  pushTokens: PushTokenService;
  /** Failed token lookups per source address; pings per token and tenant. */
  limits: Pick<RateLimitGuard, 'attempt' | 'admitPushToken'>;
  tenants: Pick<TenantStore, 'getTenant'>;
}

const tokenParams = z.object({
  token: z.string().meta({ description: 'The ping token, as shown once when the ping URL was created' }),
});

const isUnknownToken = (error: unknown) => error instanceof UnknownPingTokenError;

/**
 * One ping: the token is checked under the failed-authentication limits (a wrong, revoked or
 * malformed token is 404 and counts against the caller's address, so tokens cannot be guessed),
 * then the ping is spent from the token's bucket and its tenant's, then the check gets a success
 * or a failure exactly as from its keyed routes (409 for a paused check).
 */
async function ping(deps: PingRouteDeps, ctx: RouteContext, token: string, success: boolean): Promise<Reply> {
  const found = await deps.limits.attempt(
    ctx,
    keyPrefix(token),
    () => deps.pushTokens.verify(token),
    isUnknownToken,
  );
  const tenant = await deps.tenants.getTenant(found.tenant_id);
  if (!tenant) throw new UnknownPingTokenError();
  if (tenant.disabled) throw new AccountDisabledError();
  const headers = await deps.limits.admitPushToken(found.id, found.tenant_id);
  const result = success
    ? await deps.pushService.heartbeat(found.tenant_id, found.check_id)
    : await deps.pushService.pushResult(found.tenant_id, found.check_id, {
        success: false,
        latency_ms: 0,
        error_message: 'failure reported to the ping URL',
      });
  // A GET must never be answered from a cache: every ping is a report.
  return { status: 201, body: result, headers: { ...headers, 'Cache-Control': 'no-store' } };
}

/** GET and POST /ping/{token} (success) and /ping/{token}/fail (failure): no API key, the token is the credential. */
export function pingRoutes(deps: PingRouteDeps): PublicRoute[] {
  const routes: PublicRoute[] = [];
  for (const method of ['GET', 'POST'] as const) {
    for (const success of [true, false]) {
      routes.push(
        defineRoute({
          method,
          path: success ? '/ping/{token}' : '/ping/{token}/fail',
          auth: 'none',
          limit: 'credential',
          // Any content type and body (cron curls, webhooks): never read.
          body: 'raw',
          operationId: `${method === 'GET' ? 'get' : 'post'}Ping${success ? '' : 'Fail'}`,
          tag: 'Push',
          summary: success
            ? 'Record a success for the push check of this ping URL (no API key; the body is ignored)'
            : 'Record a failure for the push check of this ping URL (no API key; the body is ignored)',
          schemas: {
            params: tokenParams,
            responses: { 201: publicResultSchema },
            // A paused check (as on its keyed routes); a disabled account.
            errors: ['CONFLICT', 'ACCOUNT_DISABLED', 'RATE_LIMITED'],
          },
          handler: (ctx) => ping(deps, ctx, ctx.params.token, success),
        }),
      );
    }
  }
  return routes;
}
