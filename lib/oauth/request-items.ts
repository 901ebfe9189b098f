import * as z from 'zod';
import { scopeSchema } from '../domain/formats.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Condition, Table, WriteOp } from '../store/table.ts';

/**
 * A pending authorization request (`GET /oauth/authorize` checked it; the console's consent page
 * shows it and decides it): the client, the exact redirect URI, the PKCE challenge, the scopes
 * asked for, the client's state. Ten minutes, single use (the decision deletes it). It belongs to
 * no tenant until a signed-in person opens it: then it is theirs (claimed), and nobody else's.
 */
const authorizationRequestSchema = z.object({
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
  /** The person who opened it first (the consent page): only they may decide it. */
  claimed_tenant_id: z.string().optional(),
  claimed_user_id: z.string().optional(),
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

/** Whether the request is unclaimed, or claimed by this person. */
const claimableBy = (tenantId: string, userId: string): Condition => ({
  kind: 'or',
  conditions: [
    { kind: 'attrNotExists', attr: 'claimed_user_id' },
    {
      kind: 'and',
      conditions: [
        { kind: 'compare', attr: 'claimed_tenant_id', op: '=', value: tenantId },
        { kind: 'compare', attr: 'claimed_user_id', op: '=', value: userId },
      ],
    },
  ],
});

/** Claims a request for the person who opened it; fails (ConditionFailedError) when it is gone or another's. */
export function authorizationRequestClaimOp(requestId: string, tenantId: string, userId: string) {
  return request.update(
    { request_id: requestId },
    {
      set: { claimed_tenant_id: tenantId, claimed_user_id: userId },
      condition: { kind: 'and', conditions: [{ kind: 'itemExists' }, claimableBy(tenantId, userId)] },
    },
  );
}

/** The delete that decides a request: it fails (ConditionFailedError) when another decision took it first, or it is another's. */
export function authorizationRequestDecidedOp(requestId: string, tenantId: string, userId: string): WriteOp {
  return request.delete(
    { request_id: requestId },
    { kind: 'and', conditions: [{ kind: 'itemExists' }, claimableBy(tenantId, userId)] },
  );
}
