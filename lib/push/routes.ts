import { publicResultSchema } from '../checks/responses.ts';
import { checkParams } from '../checks/routes.ts';
import { defineRoute } from '../http/define-route.ts';
import { answerCreated, createRoute } from '../http/handlers.ts';
import type { AuthedRoute } from '../http/types.ts';
import { pushResultBody } from './push-input.ts';
import type { PushService } from './push-service.ts';

const tag = 'Push';

/** POST /v1/checks/{id}/results and /heartbeat: push-mode checks only. */
export function pushRoutes(deps: { pushService: PushService }): AuthedRoute[] {
  return [
    createRoute({
      path: '/v1/checks/{id}/results',
      operationId: 'pushCheckResult',
      tag,
      summary: 'Push a result for a push-mode check',
      params: checkParams,
      body: pushResultBody,
      response: publicResultSchema,
      // A pull-mode or disabled check, or a result already recorded.
      errors: ['CONFLICT'],
      create: (tenantId, { params, body }) => deps.pushService.pushResult(tenantId, params.id, body),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/checks/{id}/heartbeat',
      auth: 'key',
      // Any content type and body (webhooks from GitHub, Stripe, cron curls): never parsed.
      body: 'raw',
      operationId: 'pushCheckHeartbeat',
      tag,
      summary: 'Record a successful heartbeat for a push-mode check; the body is ignored',
      schemas: { params: checkParams, responses: { 201: publicResultSchema }, errors: ['CONFLICT'] },
      handler: answerCreated((tenantId, { params }) => deps.pushService.heartbeat(tenantId, params.id)),
    }),
  ];
}
