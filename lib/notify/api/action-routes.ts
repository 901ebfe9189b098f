import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { idSchema } from '../../http/route-schemas.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import { publicDeliverySchema, type ShowDeliveries, showOne } from '../deliveries/delivery-responses.ts';
import type { NotifyActions } from '../items/ports.ts';

const tag = 'Notifications';
/** These actions take no input beyond the path: an empty body or an empty object. */
const noBody = z.strictObject({}).optional();

/** POST .../policy/test and POST /v1/notify/logs/{id}/retry: what a user asks of the flow itself (writable keys). */
export function notifyActionRoutes(deps: {
  actions: NotifyActions;
  showDeliveries: ShowDeliveries;
}): AuthedRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/checks/{check_id}/policy/test',
      auth: 'key',
      operationId: 'testNotificationPolicy',
      tag,
      summary: "Send a test message to every channel of the check's policy now (one attempt each)",
      schemas: {
        params: z.object({ check_id: idSchema('chk') }),
        body: noBody,
        responses: { 200: z.array(publicDeliverySchema) },
        errors: ['NOT_FOUND'],
      },
      handler: async ({ principal, params }) =>
        ok(
          await deps.showDeliveries(
            principal.tenantId,
            await deps.actions.sendTest(principal.tenantId, params.check_id),
          ),
        ),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/notify/logs/{id}/retry',
      auth: 'key',
      operationId: 'retryDelivery',
      tag,
      summary: 'Send a failed delivery again (a new series of up to 3 attempts); 409 unless it failed',
      schemas: {
        params: z.object({ id: idSchema('dlv') }),
        body: noBody,
        responses: { 200: publicDeliverySchema },
        errors: ['NOT_FOUND', 'CONFLICT'],
      },
      handler: async ({ principal, params }) =>
        ok(
          await showOne(
            deps.showDeliveries,
            principal.tenantId,
            await deps.actions.retry(principal.tenantId, params.id),
          ),
        ),
    }),
  ];
}
