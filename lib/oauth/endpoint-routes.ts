import * as z from 'zod';
import type { RateLimitGuard } from '../auth/limits.ts';
import { defineRoute } from '../http/define-route.ts';
import type { HostPolicy } from '../http/origin-policy.ts';
import { publicOrigin } from '../http/policies.ts';
import type { PublicRoute, Reply, RouteContext } from '../http/types.ts';
import { type AuthorizeDeps, authorize } from './authorize.ts';
import type { Clients } from './clients.ts';
import { redirectUrisSchema } from './redirect-uris.ts';
import { oauthErrorBody, tokenResponse } from './responses.ts';
import { OauthTokenError, type TokenService } from './token-service.ts';

const tag = 'OAuth';
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export interface EndpointRouteDeps extends AuthorizeDeps {
  hosts: HostPolicy;
  clients: Clients;
  tokens: TokenService;
  limits: Pick<RateLimitGuard, 'attempt'>;
}

const authorizeQuery = z.object({
  response_type: z.literal('code'),
  client_id: z.string().min(1).max(2000),
  redirect_uri: z.string().min(1).max(2000),
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .meta({ description: 'BASE64URL(SHA-256(code_verifier)) (PKCE, RFC 7636): required' }),
  code_challenge_method: z.literal('S256').meta({ description: 'Only S256: plain is refused' }),
  scope: z
    .string()
    .max(100)
    .regex(/^(?:read|write|admin)(?: (?:read|write|admin))*$/)
    .optional(),
  state: z.string().max(1000).optional(),
  resource: z.string().max(2000).optional(),
});

const registerBody = z
  .object({
    redirect_uris: redirectUrisSchema,
    client_name: z.string().min(1).max(200).optional(),
    token_endpoint_auth_method: z.literal('none').optional(),
    grant_types: z
      .array(z.enum(['authorization_code', 'refresh_token']))
      .max(2)
      .optional(),
    response_types: z.array(z.literal('code')).max(1).optional(),
    scope: z.string().max(100).optional(),
  })
  .meta({ description: 'RFC 7591 client metadata; other members are ignored' });

const registered = z.strictObject({
  client_id: z.string(),
  client_id_issued_at: z.int(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  token_endpoint_auth_method: z.literal('none'),
});

const verifier = z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/);

/** The form the token endpoint takes, by grant_type (documented: the handler reads the form itself). */
const tokenForm = z.discriminatedUnion('grant_type', [
  z.strictObject({
    grant_type: z.literal('authorization_code'),
    client_id: z.string().min(1).max(2000),
    code: z.string().min(1).max(200),
    redirect_uri: z.string().min(1).max(2000),
    code_verifier: verifier.meta({
      description: 'PKCE (RFC 7636): the verifier of the challenge sent to /oauth/authorize',
    }),
    resource: z.string().max(2000).optional(),
  }),
  z.strictObject({
    grant_type: z.literal('refresh_token'),
    client_id: z.string().min(1).max(2000),
    refresh_token: z.string().min(1).max(200),
    scope: z
      .string()
      .regex(/^(?:read|write|admin)(?: (?:read|write|admin))*$/)
      .optional(),
    resource: z.string().max(2000).optional(),
  }),
]);

const revokeForm = z.strictObject({
  token: z.string().min(1).max(200),
  client_id: z.string().min(1).max(2000),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
});

const oauthError = (error: OauthTokenError): Reply => ({
  status: error.status,
  // `code` as every 400 of the API carries it (RFC 6749 lets a body carry more members); `error` is OAuth's.
  body: { error: error.error, error_description: error.description, code: 'VALIDATION_ERROR' },
  headers: NO_STORE,
});

/** The form fields of an `application/x-www-form-urlencoded` body (RFC 6749 3.2); a field sent twice is an error. */
function formOf(ctx: RouteContext): Record<string, string> {
  const type = ctx.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded'))
    throw new OauthTokenError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(ctx.rawBody.toString('utf8'))) {
    if (name in fields) throw new OauthTokenError('invalid_request', `${name} is repeated`);
    fields[name] = value;
  }
  return fields;
}

const required = (value: string | undefined, name: string) => {
  if (value === undefined || value === '')
    throw new OauthTokenError('invalid_request', `${name} is required`);
  return value;
};

/** `/oauth/authorize`, `/oauth/register`, `/oauth/token` and `/oauth/revoke` (docs/auth.md "OAuth for MCP clients"). */
export function endpointRoutes(deps: EndpointRouteDeps): PublicRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/oauth/authorize',
      auth: 'none',
      operationId: 'authorizeOauthClient',
      tag,
      summary:
        'Starts an authorization (code + PKCE S256): 302 to the console consent page, or back to the client with an error; an unknown client or redirect_uri is a 400, never a redirect',
      schemas: {
        query: authorizeQuery,
        responses: { 302: null },
        responseHeaders: {
          Location: {
            description:
              'The console consent page (/consent?request=…), or the redirect_uri with error and state',
            schema: { type: 'string' },
          },
        },
        errors: ['FORBIDDEN'],
      },
      handler: async (ctx) => {
        const location = await authorize(deps, ctx.query, publicOrigin(deps.hosts, ctx));
        return { status: 302, headers: { Location: location, ...NO_STORE }, audit: { skip: true } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/oauth/register',
      auth: 'none',
      operationId: 'registerOauthClient',
      tag,
      summary: 'Dynamic client registration (RFC 7591): public clients only (no secret)',
      schemas: { body: registerBody, responses: { 201: registered } },
      handler: async (ctx) => {
        const { client, issuedAt } = await deps.clients.register(ctx.body);
        return {
          status: 201,
          headers: NO_STORE,
          body: {
            client_id: client.client_id,
            client_id_issued_at: issuedAt,
            client_name: client.client_name,
            redirect_uris: client.redirect_uris,
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          },
          audit: {
            actor: { type: 'oauth_client', id: client.client_id, label: client.client_name },
            action: 'oauth_client.register',
            target: { type: 'oauth_client', id: client.client_id },
          },
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/oauth/token',
      auth: 'none',
      body: 'raw',
      operationId: 'issueOauthToken',
      tag,
      summary:
        'Token endpoint (form-encoded, public clients): authorization_code (PKCE verifier) or refresh_token (rotating)',
      schemas: {
        rawBody: { contentType: 'application/x-www-form-urlencoded', schema: tokenForm },
        responses: { 200: tokenResponse },
        otherErrors: {
          400: {
            description:
              'RFC 6749 5.2: invalid_request, invalid_grant, invalid_scope, unsupported_grant_type',
            schema: oauthErrorBody,
          },
        },
      },
      handler: async (ctx) => {
        try {
          const form = formOf(ctx);
          const clientId = required(form.client_id, 'client_id');
          // Wrong codes and refresh tokens count as failed authentications of the address.
          const guessed = (err: unknown) => err instanceof OauthTokenError && err.error === 'invalid_grant';
          if (form.grant_type === 'authorization_code') {
            const tokens = await deps.limits.attempt(
              ctx,
              'oauth-code',
              () =>
                deps.tokens.exchangeCode({
                  code: required(form.code, 'code'),
                  client_id: clientId,
                  redirect_uri: required(form.redirect_uri, 'redirect_uri'),
                  code_verifier: required(form.code_verifier, 'code_verifier'),
                  sourceIp: ctx.sourceIp,
                }),
              guessed,
            );
            return { status: 200, body: tokens, headers: NO_STORE, audit: { skip: true } };
          }
          if (form.grant_type === 'refresh_token') {
            const tokens = await deps.limits.attempt(
              ctx,
              'oauth-refresh',
              () =>
                deps.tokens.refresh({
                  refresh_token: required(form.refresh_token, 'refresh_token'),
                  client_id: clientId,
                  scope: form.scope,
                  sourceIp: ctx.sourceIp,
                }),
              guessed,
            );
            return { status: 200, body: tokens, headers: NO_STORE, audit: { skip: true } };
          }
          throw new OauthTokenError(
            'unsupported_grant_type',
            'grant_type is authorization_code or refresh_token',
          );
        } catch (err) {
          if (err instanceof OauthTokenError) return oauthError(err);
          throw err;
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/oauth/revoke',
      auth: 'none',
      body: 'raw',
      operationId: 'revokeOauthToken',
      tag,
      summary: 'Token revocation (RFC 7009): 200 whether or not the token was known',
      schemas: {
        rawBody: { contentType: 'application/x-www-form-urlencoded', schema: revokeForm },
        responses: { 200: null },
        otherErrors: { 400: { description: 'invalid_request', schema: oauthErrorBody } },
      },
      handler: async (ctx) => {
        try {
          const form = formOf(ctx);
          await deps.tokens.revoke({
            token: required(form.token, 'token'),
            client_id: required(form.client_id, 'client_id'),
          });
          return { status: 200, headers: NO_STORE, audit: { skip: true } };
        } catch (err) {
          if (err instanceof OauthTokenError) return oauthError(err);
          throw err;
        }
      },
    }),
  ];
}
