import * as z from 'zod';
import { checkParams } from '../../checks/routes.ts';
import { defineRoute } from '../../http/define-route.ts';
import { deleteRoute } from '../../http/handlers.ts';
import type { HostPolicy } from '../../http/origin-policy.ts';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import { type AuthedRoute, created, ok } from '../../http/types.ts';
import { pingOrigin } from './ping-origin.ts';
import { PUSH_TOKEN_LIMIT } from './push-token-items.ts';
import { type PushTokenService, publicPushToken } from './token-service.ts';

const tag = 'Push';

const pushTokenSchema = z
  .strictObject({
    id: idSchema('ptk'),
    check_id: idSchema('chk'),
    prefix: z.string().meta({ description: 'The first 12 characters of the token, to tell ping URLs apart' }),
    created_at: timestampSchema,
    last_used_at: timestampSchema
      .nullable()
      .meta({ description: 'The last ping with this token (written at most once a minute)' }),
  })
  .meta({ id: 'PushToken' });

const createdPushTokenSchema = pushTokenSchema
  .extend({
    token: z.string().meta({ description: 'The token itself: shown in this response only, never again' }),
    ping_url: z.string().nullable().meta({
      description:
        'The ping URL (`<VIGIL_PING_URL>/ping/<token>`: in the cloud the ping function URL; else on VIGIL_PUBLIC_URL, or on the address this request came in on when neither is set; append `/fail` to report a failure); null when none is known',
    }),
  })
  .meta({ id: 'CreatedPushToken' });

const tokenParams = checkParams.extend({ token_id: idSchema('ptk') });

/** The ping URLs of a push check: create (the token shown once), list, revoke. */
export function pushTokenRoutes(deps: { pushTokens: PushTokenService; hosts: HostPolicy }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/checks/{id}/push-tokens',
      auth: 'key',
      operationId: 'createPushToken',
      tag,
      summary: `Create a ping URL for a push check (at most ${PUSH_TOKEN_LIMIT} per check); its token is in this response only`,
      schemas: {
        params: checkParams,
        // Nothing to send: an empty body or {}.
        body: z.strictObject({}).optional(),
        responses: { 201: createdPushTokenSchema },
        // A pull-mode check; the check's limit of ping URLs.
        errors: ['CONFLICT', 'LIMIT_EXCEEDED'],
      },
      handler: async (ctx) => {
        const { principal, params } = ctx;
        const { record, token } = await deps.pushTokens.create(principal.tenantId, params.id);
        const origin = pingOrigin(deps.hosts, ctx);
        const pingUrl = origin === null ? null : `${origin}/ping/${token}`;
        return created({ ...publicPushToken(record), token, ping_url: pingUrl });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/push-tokens',
      auth: 'key',
      operationId: 'listPushTokens',
      tag,
      summary: 'The ping URLs of a check, oldest first (prefixes only: tokens are never shown again)',
      schemas: { params: checkParams, responses: { 200: z.array(pushTokenSchema) } },
      handler: async ({ principal, params }) =>
        ok((await deps.pushTokens.list(principal.tenantId, params.id)).map(publicPushToken)),
    }),
    deleteRoute({
      path: '/v1/checks/{id}/push-tokens/{token_id}',
      operationId: 'revokePushToken',
      tag,
      summary: 'Revoke a ping URL: pings with its token get 404 from now on',
      params: tokenParams,
      remove: (tenantId, params) => deps.pushTokens.revoke(tenantId, params.id, params.token_id),
    }),
  ];
}
