import * as z from 'zod';
import { scopeSchema, scopeText } from '../domain/formats.ts';
import { defineRoute } from '../http/define-route.ts';
import { idSchema } from '../http/route-schemas.ts';
import { type AuthedRoute, noContent, ok } from '../http/types.ts';
import { NotFoundError } from '../platform/errors.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { type Consent, scopesFor } from './consent.ts';
import { grantDeletedOp, listGrants } from './grant-items.ts';
import { grantView, publicGrant, publicRequest, requestView } from './responses.ts';

const tag = 'OAuth';

export interface ConsentRouteDeps {
  table: Table;
  consent: Consent;
}

const requestParams = z.strictObject({ id: idSchema('oar') });
const grantParams = z.strictObject({ id: idSchema('ogr') });

/**
 * The console's side of OAuth: the consent page's request and decision, and the person's
 * connected clients (their grants) with revoke. A signed-in person (session + CSRF) or an API key;
 * never an OAuth token (403). Viewers and read-only keys may approve `read` and revoke their own
 * grants, so these writes are open to read-only callers (`readsOnly`).
 */
export function consentRoutes(deps: ConsentRouteDeps): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/oauth/requests/{id}',
      auth: 'key',
      operationId: 'getOauthRequest',
      tag,
      summary: 'A pending authorization request, as the consent page shows it',
      schemas: { params: requestParams, responses: { 200: requestView }, errors: ['FORBIDDEN'] },
      handler: async (ctx) => {
        const { request, grantable } = await deps.consent.show(ctx.principal, ctx.params.id);
        return ok(publicRequest(request, grantable));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/oauth/requests/{id}/decision',
      auth: 'key',
      readsOnly: true,
      operationId: 'decideOauthRequest',
      tag,
      summary:
        'Approves or denies a pending request (once): the URL to send the browser to, with a code or error=access_denied, and the state',
      schemas: {
        params: requestParams,
        body: z.strictObject({
          approve: z.boolean(),
          scopes: z
            .array(scopeSchema)
            .max(3)
            .optional()
            .meta({ description: 'A subset of what the client asked for; capped by your role' }),
        }),
        responses: { 200: z.strictObject({ redirect_to: z.string() }) },
        errors: ['FORBIDDEN'],
      },
      handler: async (ctx) => {
        const { redirect_to, request, grant, scopes } = await deps.consent.decide(
          ctx.principal,
          ctx.params.id,
          ctx.body.approve,
          ctx.body.scopes,
        );
        return {
          status: 200,
          body: { redirect_to },
          audit: grant
            ? {
                action: 'oauth_grant.approve',
                target: { type: 'oauth_grant', id: grant.grant_id },
                summary: `connected ${request.client_name} (${scopeText(scopes)})`,
              }
            : { action: 'oauth_request.deny', target: { type: 'oauth_request', id: request.request_id } },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/oauth/grants',
      auth: 'key',
      operationId: 'listOauthGrants',
      tag,
      summary: 'Your connected MCP clients (your own grants, admins too)',
      schemas: { responses: { 200: z.strictObject({ grants: z.array(grantView) }) }, errors: ['FORBIDDEN'] },
      handler: async (ctx) => {
        scopesFor(ctx.principal);
        const grants = await listGrants(deps.table, ctx.principal.tenantId, ctx.principal.userId);
        return ok({ grants: grants.map(publicGrant) });
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/oauth/grants/{id}',
      auth: 'key',
      readsOnly: true,
      operationId: 'revokeOauthGrant',
      tag,
      summary: 'Revokes one of your grants: its access and refresh tokens stop working at once',
      schemas: { params: grantParams, responses: { 204: null }, errors: ['FORBIDDEN'] },
      handler: async (ctx) => {
        scopesFor(ctx.principal);
        const key = {
          tenant_id: ctx.principal.tenantId,
          user_id: ctx.principal.userId,
          grant_id: ctx.params.id,
        };
        try {
          await deps.table.transact([grantDeletedOp(key)]);
        } catch (err) {
          if (err instanceof ConditionFailedError) throw new NotFoundError('OAuth grant');
          throw err;
        }
        return {
          ...noContent(),
          audit: { action: 'oauth_grant.revoke', target: { type: 'oauth_grant', id: ctx.params.id } },
        };
      },
    }),
  ];
}
