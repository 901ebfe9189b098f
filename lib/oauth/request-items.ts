import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Table, WriteOp } from '../store/table.ts';
import { scopeSchema } from './scopes.ts';

/**
 * A pending authorization request (`GET /oauth/authorize` checked it; the console's consent page
 * shows it and decides it): the client, the exact redirect URI, the PKCE challenge, the scopes
 * asked for, the client's state. Ten minutes, single use (the decision deletes it).
 */
export const authorizationRequestSchema = z.object({
  request_id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  redirect_uri: z.string(),
  code_challenge: z.string(),
  scopes: z.array(scopeSchema),
  state: z.string().optional(),
  resource: z.string().optional(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type AuthorizationRequest = z.infer<typeof authorizationRequestSchema>;

const request = defineItem({
  type: itemType('oauth_request'),
  schema: authorizationRequestSchema,
  key: (k: { request_id: string }) => ({ pk: `OAUTHREQ#${k.request_id}`, sk: 'REQUEST' }),
  ttl: (r) => Math.ceil(Date.parse(r.expires_at) / 1000),
  docKey: { request_id: '<oar>' },
});

/** A pending request, or undefined (gone, decided); the caller checks `expires_at` (TTL is lazy). */
export function getAuthorizationRequest(table: Table, requestId: string) {
  return request.get(table, { request_id: requestId }, { consistent: true });
}

export function authorizationRequestPutOp(record: AuthorizationRequest): WriteOp {
  return request.put(record, { kind: 'itemNotExists' });
}

/** The delete that decides a request: it fails (ConditionFailedError) when another decision took it first. */
export function authorizationRequestDecidedOp(requestId: string): WriteOp {
  return request.delete({ request_id: requestId }, { kind: 'itemExists' });
}
