import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessFetch } from '../mcp/sdk-client.ts';
import { csrfOf, GOOD_PASSWORD, setPassword, signedIn } from '../people/session-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectWithOauth, MCP_URL, PUBLIC_URL, postForm, TestProvider } from './oauth-support.ts';

const WRITING_TOOLS = ['create_check', 'acknowledge_incident', 'add_incident_note', 'create_maintenance'];

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** A raw MCP initialize with `token`: its status. */
async function mcpStatus(api: ApiHarness, token: string): Promise<number> {
  const res = await harnessFetch(api)(MCP_URL, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(initialize),
  });
  return res.status;
}

describe.each(runtimes)('OAuth for MCP clients end to end ($runtime)', ({ start }) => {
  let api: ApiHarness;
  /** The admin, signed in to the console (a session cookie and its CSRF token). */
  let session: { id: string; csrf: string };
  const open: Client[] = [];

  beforeAll(async () => {
    api = await start({ env: { VIGIL_PUBLIC_URL: PUBLIC_URL }, scheduler: false });
    await enableToolsets(api, api.adminKey);
    const me = await api.request('GET', '/v1/me', { key: api.adminKey });
    expect((await setPassword(api, api.adminKey, { password: GOOD_PASSWORD })).status).toBeLessThan(300);
    const id = await signedIn(api, me.body.user.email);
    session = { id, csrf: await csrfOf(api, id) };
  });
  afterAll(async () => {
    for (const client of open) await client.close().catch(() => undefined);
    await api.close();
  });

  const connect = async (provider: TestProvider) => {
    const client = await connectWithOauth(api, provider);
    open.push(client);
    return client;
  };

  it('serves the protected resource and authorization server metadata the SDK discovers', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/v1/mcp',
    ]) {
      const res = await api.request('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({
        resource: `${PUBLIC_URL}/v1/mcp`,
        authorization_servers: [PUBLIC_URL],
        scopes_supported: ['read', 'write', 'admin'],
        bearer_methods_supported: ['header'],
        resource_name: 'Vigil MCP',
      });
    }
    const as = await api.request('GET', '/.well-known/oauth-authorization-server');
    expect(as.body).toMatchObject({
      issuer: PUBLIC_URL,
      authorization_endpoint: `${PUBLIC_URL}/oauth/authorize`,
      token_endpoint: `${PUBLIC_URL}/oauth/token`,
      registration_endpoint: `${PUBLIC_URL}/oauth/register`,
      revocation_endpoint: `${PUBLIC_URL}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
    });
  });

  it('answers a 401 on /v1/mcp with the resource metadata pointer', async () => {
    const res = await api.request('POST', '/v1/mcp', {
      body: initialize,
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource"`,
    );
  });

  it('authorizes the SDK client (registration, consent by a signed-in person, code + PKCE); a read token lists and calls only read tools', async () => {
    const provider = new TestProvider(api, { key: api.adminKey, session, scopes: ['read'] });
    const client = await connect(provider);
    // The client asked for what the metadata offers; the person granted read only; the state came back.
    expect(provider.authorizeUrl?.searchParams.get('scope')).toBe('read write admin');
    expect(provider.authorizeUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(provider.callback?.get('state')).toBe(provider.stateValue);
    expect(provider.info?.client_id).toMatch(/^ocl_/);
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', scope: 'read', expires_in: 3600 });
    expect(provider.saved?.access_token).toMatch(/^vat_/);

    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('get_status_summary');
    for (const tool of WRITING_TOOLS) expect(names).not.toContain(tool);
    const summary = await client.callTool({ name: 'get_status_summary', arguments: {} });
    expect(summary.isError ?? false).toBe(false);
    await expect(
      client.callTool({
        name: 'create_check',
        arguments: { entity_id: 'ent_x', target_url: 'http://127.0.0.1:9/' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
    // The API refuses the read token's writes too.
    const write = await api.request('POST', '/v1/blueprints', {
      key: provider.saved?.access_token ?? '',
      body: { slug: 'nope', name: 'Nope' },
    });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('READ_ONLY');
  });

  it('gives a write token the writing tools, and an admin person approving admin the admin role only with that scope', async () => {
    const provider = new TestProvider(api, { key: api.adminKey, session, scopes: ['read', 'write'] });
    const client = await connect(provider);
    expect(provider.saved?.scope).toBe('read write');
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const tool of WRITING_TOOLS) expect(names).toContain(tool);
    // A member-level token of an admin: admin routes are refused.
    const invite = (token: string, email: string) =>
      api.request('POST', '/v1/settings/users/invite', { key: token, body: { email } });
    const refused = await invite(provider.saved?.access_token ?? '', 'member-token@example.com');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const admin = new TestProvider(api, { key: api.adminKey });
    await connect(admin);
    expect(admin.saved?.scope).toBe('read write admin');
    const invited = await invite(admin.saved?.access_token ?? '', 'admin-token@example.com');
    expect(invited.status, invited.text).toBe(201);
  });

  it('rotates refresh tokens; a replayed refresh token revokes the grant and its tokens', async () => {
    const provider = new TestProvider(api, { key: api.adminKey, scopes: ['read'] });
    await connect(provider);
    const clientId = provider.info?.client_id ?? '';
    const first = provider.saved;
    const refreshed = await postForm(api, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first?.refresh_token ?? '',
      client_id: clientId,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    expect(refreshed.body.refresh_token).not.toBe(first?.refresh_token);
    expect(refreshed.body.scope).toBe('read');
    expect(await mcpStatus(api, refreshed.body.access_token)).toBe(200);

    const replay = await postForm(api, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first?.refresh_token ?? '',
      client_id: clientId,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // The whole grant is gone: the new pair is worthless too.
    expect(await mcpStatus(api, refreshed.body.access_token)).toBe(401);
    const after = await postForm(api, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
      client_id: clientId,
    });
    expect(after.body.error).toBe('invalid_grant');
  });

  it("lists the person's connected clients, and a revoked grant answers 401 on /v1/mcp", async () => {
    const provider = new TestProvider(api, { key: api.adminKey, scopes: ['read'] });
    await connect(provider);
    const token = provider.saved?.access_token ?? '';
    expect(await mcpStatus(api, token)).toBe(200);
    const listed = await api.request('GET', '/v1/oauth/grants', { key: api.adminKey });
    expect(listed.status).toBe(200);
    const grant = listed.body.grants.find(
      (g: { client_id: string }) => g.client_id === provider.info?.client_id,
    );
    expect(grant).toMatchObject({ client_name: 'Test MCP client', scopes: ['read'] });
    expect(grant.last_used_at).not.toBeNull();
    // An OAuth token cannot see or manage grants.
    expect((await api.request('GET', '/v1/oauth/grants', { key: token })).status).toBe(403);
    const revoked = await api.request('DELETE', `/v1/oauth/grants/${grant.id}`, { key: api.adminKey });
    expect(revoked.status).toBe(204);
    expect(await mcpStatus(api, token)).toBe(401);
    expect((await api.request('DELETE', `/v1/oauth/grants/${grant.id}`, { key: api.adminKey })).status).toBe(
      404,
    );
  });

  it('refuses a cookie-authenticated decision without the CSRF token', async () => {
    const provider = new TestProvider(api, { key: api.adminKey, session: { id: session.id, csrf: 'wrong' } });
    await expect(connectWithOauth(api, provider)).rejects.toThrow();
    expect(provider.decisionStatus).toBe(403);
    expect(provider.callback).toBeUndefined();
  });

  it('keeps API keys working on /v1/mcp', async () => {
    expect(await mcpStatus(api, api.adminKey)).toBe(200);
  });
});
