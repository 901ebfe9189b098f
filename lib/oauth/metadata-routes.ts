import * as z from 'zod';
import { SCOPES } from '../domain/formats.ts';
import { defineRoute } from '../http/define-route.ts';
import type { HostPolicy } from '../http/origin-policy.ts';
import { publicOrigin } from '../http/policies.ts';
import { ok, type PublicRoute, type RouteContext } from '../http/types.ts';

const tag = 'OAuth';

const protectedResource = z.strictObject({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
});

const authorizationServer = z.strictObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.string(),
  revocation_endpoint: z.string(),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  client_id_metadata_document_supported: z.boolean(),
});

/** The discovery documents MCP clients read first (RFC 9728, RFC 8414). */
export function metadataRoutes(hosts: HostPolicy): PublicRoute[] {
  const resourceMetadata = (ctx: RouteContext) => {
    const origin = publicOrigin(hosts, ctx);
    return ok({
      resource: `${origin}/v1/mcp`,
      authorization_servers: [origin],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Vigil MCP',
    });
  };
  const resourceSchemas = { responses: { 200: protectedResource }, errors: ['FORBIDDEN'] } as const;
  return [
    defineRoute({
      method: 'GET',
      path: '/.well-known/oauth-protected-resource',
      auth: 'none',
      operationId: 'getProtectedResourceMetadata',
      tag,
      summary: 'OAuth protected resource metadata of the MCP endpoint (RFC 9728)',
      schemas: resourceSchemas,
      handler: async (ctx) => resourceMetadata(ctx),
    }),
    defineRoute({
      method: 'GET',
      path: '/.well-known/oauth-protected-resource/v1/mcp',
      auth: 'none',
      operationId: 'getMcpProtectedResourceMetadata',
      tag,
      summary: 'The same, at the path-suffixed address clients try first (RFC 9728 3.1)',
      schemas: resourceSchemas,
      handler: async (ctx) => resourceMetadata(ctx),
    }),
    defineRoute({
      method: 'GET',
      path: '/.well-known/oauth-authorization-server',
      auth: 'none',
      operationId: 'getAuthorizationServerMetadata',
      tag,
      summary: 'OAuth authorization server metadata (RFC 8414)',
      schemas: { responses: { 200: authorizationServer }, errors: ['FORBIDDEN'] },
      handler: async (ctx) => {
        const origin = publicOrigin(hosts, ctx);
        return ok({
          issuer: origin,
          authorization_endpoint: `${origin}/oauth/authorize`,
          token_endpoint: `${origin}/oauth/token`,
          registration_endpoint: `${origin}/oauth/register`,
          revocation_endpoint: `${origin}/oauth/revoke`,
          scopes_supported: [...SCOPES],
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          revocation_endpoint_auth_methods_supported: ['none'],
          client_id_metadata_document_supported: true,
        });
      },
    }),
  ];
}
