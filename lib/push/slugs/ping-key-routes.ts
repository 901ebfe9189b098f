import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import type { HostPolicy } from '../../http/origin-policy.ts';
import { timestampSchema } from '../../http/route-schemas.ts';
import { type AuthedRoute, created, ok } from '../../http/types.ts';
import { pingOrigin } from '../tokens/ping-origin.ts';
import { type PingKeyService, publicPingKey } from './ping-key-service.ts';

const tag = 'Push';

const pingKeySchema = z
  .strictObject({
    exists: z.boolean().meta({ description: 'Whether the account has a ping key' }),
    prefix: z
      .string()
      .nullable()
      .meta({ description: 'The first 4 characters of the ping key, to tell keys apart; null without one' }),
    created_at: timestampSchema
      .nullable()
      .meta({ description: 'When the ping key was made; null without one' }),
  })
  .meta({ id: 'PingKey' });

const createdPingKeySchema = z
  .strictObject({
    ping_key: z.string().meta({
      description: 'The ping key itself (22 URL-safe characters): shown in this response only, never again',
    }),
    prefix: z.string().meta({ description: 'Its first 4 characters' }),
    created_at: timestampSchema,
    slug_url_pattern: z.string().nullable().meta({
      description:
        'The slug ping URLs it makes: `<VIGIL_PING_URL>/ping/<ping key>/<slug>` with `<slug>` left to fill in (in the cloud the ping function URL; else on VIGIL_PUBLIC_URL, or on the address this request came in on when neither is set); null when none is known',
    }),
  })
  .meta({ id: 'CreatedPingKey' });

/** GET and POST /v1/settings/ping-key: the account's ping key (slug ping URLs), described or made anew. */
export function pingKeyRoutes(deps: { pingKeys: PingKeyService; hosts: HostPolicy }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/settings/ping-key',
      auth: 'key',
      operationId: 'getPingKey',
      tag,
      summary:
        'Whether the account has a ping key (for slug ping URLs), its prefix and creation time; never the key',
      schemas: { responses: { 200: pingKeySchema } },
      handler: async ({ principal }) => ok(publicPingKey(await deps.pingKeys.describe(principal.tenantId))),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/settings/ping-key',
      auth: 'key',
      role: 'admin',
      operationId: 'createPingKey',
      tag,
      summary:
        'Create the account’s ping key, or rotate it (admins): the old key stops working at once; the new one is in this response only',
      schemas: {
        // Nothing to send: an empty body or {}.
        body: z.strictObject({}).optional(),
        responses: { 201: createdPingKeySchema },
        // Rotated by another request at the same moment.
        errors: ['CONFLICT'],
      },
      handler: async (ctx) => {
        const { record, pingKey } = await deps.pingKeys.rotate(ctx.principal.tenantId);
        const origin = pingOrigin(deps.hosts, ctx);
        return created({
          ping_key: pingKey,
          prefix: record.prefix,
          created_at: record.created_at,
          slug_url_pattern: origin === null ? null : `${origin}/ping/${pingKey}/<slug>`,
        });
      },
    }),
  ];
}
