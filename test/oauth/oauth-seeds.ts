import { grantPutOp } from '../../lib/oauth/grant-items.ts';
import { newId } from '../../lib/platform/ids.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { pkcePair, requestNoFollow } from './oauth-support.ts';

/** A grant of `userId` to a made-up client, written straight to the store (the route-table fixtures). */
export async function seedOauthGrant(api: ApiHarness, tenantId: string, userId: string): Promise<string> {
  const grantId = newId('ogr');
  await api.table.transact([
    grantPutOp({
      tenant_id: tenantId,
      user_id: userId,
      grant_id: grantId,
      client_id: 'ocl_01J00000000000000000000000',
      client_name: 'Fixture client',
      scopes: ['read'],
      created_at: new Date().toISOString(),
    }),
  ]);
  return grantId;
}

/**
 * A pending authorization request of a newly registered client, opened (claimed) by the person of
 * `key`: its id. Another person's key finds no such request.
 */
export async function pendingOauthRequest(api: ApiHarness, key: string): Promise<string> {
  const redirect = 'https://client.example/callback';
  const client = await api.request('POST', '/oauth/register', {
    body: { redirect_uris: [redirect], client_name: 'Fixture client' },
  });
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.body.client_id,
    redirect_uri: redirect,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    scope: 'read',
  });
  const started = await requestNoFollow(api, 'GET', `/oauth/authorize?${query}`);
  const requestId = new URL(started.headers.location ?? '').searchParams.get('request') ?? '';
  const opened = await api.request('GET', `/v1/oauth/requests/${requestId}`, { key });
  if (opened.status !== 200) throw new Error(`consent request not opened: ${opened.text}`);
  return requestId;
}
