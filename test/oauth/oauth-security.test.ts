import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { PUBLIC_URL, pkcePair, postForm, REDIRECT_URI, requestNoFollow } from './oauth-support.ts';

describe.each(runtimes)('OAuth endpoints refuse what they must ($runtime)', ({ start }) => {
  let api: ApiHarness;
  let clientId: string;

  beforeAll(async () => {
    api = await start({ env: { VIGIL_PUBLIC_URL: PUBLIC_URL }, scheduler: false });
    const registered = await api.request('POST', '/oauth/register', {
      body: { redirect_uris: [REDIRECT_URI], client_name: 'Security test' },
    });
    expect(registered.status, registered.text).toBe(201);
    clientId = registered.body.client_id;
  });
  afterAll(async () => {
    await api.close();
  });

  const authorizeQuery = (overrides: Record<string, string | undefined> = {}) => {
    const fields: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      state: 'st-123',
      ...overrides,
    };
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) query.set(k, v);
    return `/oauth/authorize?${query}`;
  };

  /** Authorize, approve with the admin key: the code, the verifier and the redirect's parameters. */
  const approvedCode = async (scopes = ['read']) => {
    const pkce = pkcePair();
    const started = await requestNoFollow(api, 'GET', authorizeQuery({ code_challenge: pkce.challenge }));
    expect(started.status, started.text).toBe(302);
    const requestId = new URL(started.headers.location ?? '').searchParams.get('request') ?? '';
    const decided = await api.request('POST', `/v1/oauth/requests/${requestId}/decision`, {
      key: api.adminKey,
      body: { approve: true, scopes },
    });
    expect(decided.status, decided.text).toBe(200);
    const back = new URL(decided.body.redirect_to);
    return { code: back.searchParams.get('code') ?? '', verifier: pkce.verifier, back };
  };

  /** The audit log's revocations of the grant. */
  const revocationsOf = async (grantId: string) => {
    const log = await api.request('GET', `/v1/audit?target=oauth_grant:${grantId}`, { key: api.adminKey });
    expect(log.status, log.text).toBe(200);
    return log.body.entries.filter((entry: { action: string }) => entry.action === 'oauth_grant.revoke');
  };

  const exchange = (code: string, verifier: string, overrides: Record<string, string> = {}) =>
    postForm(api, '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      ...overrides,
    });

  it('refuses a redirect_uri that is not exactly a registered one, without redirecting', async () => {
    for (const variant of [
      `${REDIRECT_URI}/extra`,
      `${REDIRECT_URI}?x=1`,
      REDIRECT_URI.replace('/callback', '/call'),
      REDIRECT_URI.replace('127.0.0.1', 'localhost'),
      'https://evil.example/callback',
    ]) {
      const res = await requestNoFollow(api, 'GET', authorizeQuery({ redirect_uri: variant }));
      expect(res.status, variant).toBe(400);
      expect(res.headers.location, variant).toBeUndefined();
    }
  });

  it('refuses an unknown client with a 400, never a redirect (no open redirect)', async () => {
    for (const id of [
      'ocl_01J00000000000000000000000',
      'not-a-client',
      'https://unknown.invalid/client.json',
    ]) {
      const res = await requestNoFollow(
        api,
        'GET',
        authorizeQuery({ client_id: id, redirect_uri: 'https://evil.example/cb' }),
      );
      expect(res.status, id).toBe(400);
      expect(res.headers.location, id).toBeUndefined();
    }
  });

  it('requires PKCE S256: a missing challenge or the plain method is refused', async () => {
    expect((await requestNoFollow(api, 'GET', authorizeQuery({ code_challenge: undefined }))).status).toBe(
      400,
    );
    const plain = await requestNoFollow(api, 'GET', authorizeQuery({ code_challenge_method: 'plain' }));
    expect(plain.status).toBe(400);
    expect(plain.headers.location).toBeUndefined();
  });

  it('sends other problems back to the client with its state: an unknown scope, another resource', async () => {
    const scope = await requestNoFollow(
      api,
      'GET',
      authorizeQuery({ resource: 'https://other.example/v1/mcp' }),
    );
    expect(scope.status).toBe(302);
    const back = new URL(scope.headers.location ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('state')).toBe('st-123');
  });

  it('round-trips the state and refuses a wrong code_verifier', async () => {
    const { code, back } = await approvedCode();
    expect(back.searchParams.get('state')).toBe('st-123');
    const wrong = await exchange(code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    expect(wrong.headers['cache-control']).toBe('no-store');
  });

  it('refuses a code sent with another redirect_uri or client', async () => {
    const { code, verifier } = await approvedCode();
    expect((await exchange(code, verifier, { redirect_uri: `${REDIRECT_URI}/x` })).body.error).toBe(
      'invalid_grant',
    );
    expect((await exchange(code, verifier, { client_id: 'ocl_01J00000000000000000000000' })).body.error).toBe(
      'invalid_grant',
    );
  });

  it('uses a code once: a replay is refused and revokes the tokens it issued', async () => {
    const { code, verifier } = await approvedCode();
    const first = await exchange(code, verifier);
    expect(first.status, first.text).toBe(200);
    const me = await api.request('GET', '/v1/me', { key: first.body.access_token });
    expect(me.status).toBe(200);
    // The token's caller as the document says: its grant, read-only without the write scope.
    expect(me.body.credential).toBe('oauth');
    expect(me.body.key).toMatchObject({ id: expect.stringMatching(/^ogr_/), is_read_only: true });
    const replay = await exchange(code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await api.request('GET', '/v1/me', { key: first.body.access_token })).status).toBe(401);
    // The revocation is in the audit log, the client its actor.
    expect(await revocationsOf(me.body.key.id)).toEqual([
      expect.objectContaining({
        actor: { type: 'oauth_client', id: clientId, label: 'Security test' },
        action: 'oauth_grant.revoke',
        summary: 'authorization code replayed: the grant and its tokens were revoked',
      }),
    ]);
    // A second replay finds the grant gone: nothing more is recorded.
    expect((await exchange(code, verifier)).status).toBe(400);
    expect(await revocationsOf(me.body.key.id)).toHaveLength(1);
  });

  it('revokes the grant of a refresh token used twice, and records it under the client', async () => {
    const { code, verifier } = await approvedCode();
    const tokens = (await exchange(code, verifier)).body;
    const grantId = (await api.request('GET', '/v1/me', { key: tokens.access_token })).body.key.id;
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId };
    expect((await postForm(api, '/oauth/token', refresh)).status).toBe(200);
    const replay = await postForm(api, '/oauth/token', refresh);
    expect(replay.body.error).toBe('invalid_grant');
    expect(await revocationsOf(grantId)).toEqual([
      expect.objectContaining({
        actor: { type: 'oauth_client', id: clientId, label: 'Security test' },
        action: 'oauth_grant.revoke',
        target: { type: 'oauth_grant', id: grantId },
        summary: 'refresh token replayed: the grant and its tokens were revoked',
      }),
    ]);
  });

  it('answers an unsupported grant type and a body that is not a form per RFC 6749', async () => {
    const implicit = await postForm(api, '/oauth/token', { grant_type: 'password', client_id: clientId });
    expect(implicit.body.error).toBe('unsupported_grant_type');
    const json = await api.request('POST', '/oauth/token', { body: { grant_type: 'authorization_code' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
  });

  it('revokes a refresh token (RFC 7009): its grant and access tokens stop working', async () => {
    const { code, verifier } = await approvedCode();
    const tokens = (await exchange(code, verifier)).body;
    const revoked = await postForm(api, '/oauth/revoke', {
      token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(revoked.status).toBe(200);
    expect((await api.request('GET', '/v1/me', { key: tokens.access_token })).status).toBe(401);
    // Unknown tokens get the same answer.
    expect((await postForm(api, '/oauth/revoke', { token: 'vrt_unknown', client_id: clientId })).status).toBe(
      200,
    );
  });

  it('registers only https or loopback redirect URIs', async () => {
    for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'https://a.example/cb#frag']) {
      const res = await api.request('POST', '/oauth/register', { body: { redirect_uris: [uri] } });
      expect(res.status, uri).toBe(400);
    }
  });

  it("caps the scopes by the person's role, and lets only the person who opened a request decide it", async () => {
    const started = await requestNoFollow(api, 'GET', authorizeQuery({ scope: 'read write admin' }));
    const requestId = new URL(started.headers.location ?? '').searchParams.get('request') ?? '';
    const readOnly = (
      await api.request('POST', '/v1/auth/keys', {
        key: api.adminKey,
        body: { label: 'ro', is_read_only: true },
      })
    ).body.key;
    const shown = await api.request('GET', `/v1/oauth/requests/${requestId}`, { key: readOnly });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({
      client_name: 'Security test',
      scopes: ['read', 'write', 'admin'],
      grantable: ['read'],
    });
    expect(shown.body.redirect_host).toBe('127.0.0.1:33418');
    // Another tenant's person finds no such request.
    const other = await api.createTenant('Intruder');
    expect((await api.request('GET', `/v1/oauth/requests/${requestId}`, { key: other.key })).status).toBe(
      404,
    );
    const decided = await api.request('POST', `/v1/oauth/requests/${requestId}/decision`, {
      key: readOnly,
      body: { approve: true },
    });
    expect(decided.status, decided.text).toBe(200);
    const code = new URL(decided.body.redirect_to).searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    // Decided once: a second decision finds nothing.
    const again = await api.request('POST', `/v1/oauth/requests/${requestId}/decision`, {
      key: readOnly,
      body: { approve: false },
    });
    expect(again.status).toBe(404);
  });

  it('answers access_denied with the state when the person denies', async () => {
    const started = await requestNoFollow(api, 'GET', authorizeQuery());
    const requestId = new URL(started.headers.location ?? '').searchParams.get('request') ?? '';
    const denied = await api.request('POST', `/v1/oauth/requests/${requestId}/decision`, {
      key: api.adminKey,
      body: { approve: false },
    });
    const back = new URL(denied.body.redirect_to);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toBeNull();
  });
});
