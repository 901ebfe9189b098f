import * as z from 'zod';
import { scopeSchema } from '../domain/formats.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import type { Grant } from './grant-items.ts';
import { redirectHost } from './redirect-uris.ts';
import type { AuthorizationRequest } from './request-items.ts';

/** RFC 6749 5.2 / RFC 7009 / RFC 7591 error body: `{error, error_description}`. */
export const oauthErrorBody = z.strictObject({
  error: z
    .string()
    .meta({ description: 'invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, …' }),
  error_description: z.string().optional(),
  code: z
    .string()
    .optional()
    .meta({ description: 'VALIDATION_ERROR, as every 400 of the API says it; `error` is the OAuth error' }),
});

export const tokenResponse = z.strictObject({
  access_token: z.string().meta({ description: '`vat_…`, valid 1 hour' }),
  token_type: z.literal('Bearer'),
  expires_in: z.int(),
  refresh_token: z.string().meta({ description: '`vrt_…`: single use, each refresh answers a new one' }),
  scope: z.string(),
});

export const requestView = z.strictObject({
  id: idSchema('oar'),
  client_id: z.string(),
  client_name: z.string(),
  redirect_uri: z.string(),
  redirect_host: z.string(),
  scopes: z.array(scopeSchema).meta({ description: 'What the client asked for' }),
  grantable: z.array(scopeSchema).meta({ description: 'Of those, what you may grant (your role caps it)' }),
  expires_at: timestampSchema,
});

export const grantView = z.strictObject({
  id: idSchema('ogr'),
  client_id: z.string(),
  client_name: z.string(),
  scopes: z.array(scopeSchema),
  created_at: timestampSchema,
  last_used_at: timestampSchema.nullable(),
});

export const publicRequest = (
  request: AuthorizationRequest,
  grantable: string[],
): z.infer<typeof requestView> => ({
  id: request.request_id,
  client_id: request.client_id,
  client_name: request.client_name,
  redirect_uri: request.redirect_uri,
  redirect_host: redirectHost(request.redirect_uri),
  scopes: request.scopes,
  grantable: request.scopes.filter((s) => grantable.includes(s)),
  expires_at: request.expires_at,
});

export const publicGrant = (grant: Grant): z.infer<typeof grantView> => ({
  id: grant.grant_id,
  client_id: grant.client_id,
  client_name: grant.client_name,
  scopes: grant.scopes,
  created_at: grant.created_at,
  last_used_at: grant.last_used_at ?? null,
});
