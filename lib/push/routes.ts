import { type AuthedRoute, created } from '../http/types.ts';
import { parseInput } from '../http/validation.ts';
import { pushResultBody } from './push-input.ts';
import type { PushService } from './push-service.ts';

/** POST /v1/checks/{id}/results and /heartbeat: push-mode checks only. */
export function pushRoutes(deps: { pushService: PushService }): AuthedRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/checks/{id}/results',
      auth: 'key',
      summary: 'Push a result for a push-mode check',
      handler: async ({ principal, params, body }) =>
        created(
          await deps.pushService.pushResult(
            principal.tenantId,
            params.id ?? '',
            parseInput(pushResultBody, body),
          ),
        ),
    },
    {
      method: 'POST',
      path: '/v1/checks/{id}/heartbeat',
      auth: 'key',
      // Any content type and body (webhooks from GitHub, Stripe, cron curls): never parsed.
      body: 'raw',
      summary: 'Record a successful heartbeat for a push-mode check; the body is ignored',
      handler: async ({ principal, params }) =>
        created(await deps.pushService.heartbeat(principal.tenantId, params.id ?? '')),
    },
  ];
}
