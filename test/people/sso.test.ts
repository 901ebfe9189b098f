import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.ts';
import { ACCOUNTS, browserGet, CALLBACK, pathOf, putSettings, SSO_ENV, ssoSignIn } from './sso-helpers.ts';

describe.each(runtimes)('SSO with OIDC ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let provider: TestProvider;

  beforeAll(async () => {
    provider = await startTestProvider({ redirectUri: CALLBACK, accounts: ACCOUNTS });
    api = await start({ env: SSO_ENV });
    const saved = await putSettings(api, provider, { slug: `team-${api.runtime}` });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await api?.close();
    await provider?.close();
  });

  it('shows the settings with the client secret as ******** and keeps it on a PUT of ********', async () => {
    const read = await api.request('GET', '/v1/settings/sso', { key: api.adminKey });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      configured: true,
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret: '********',
      email_domains: ['example.com'],
      default_role: 'member',
      required: false,
      callback_path: '/v1/sso/callback',
    });
    const kept = await putSettings(api, provider, { client_secret: '********', slug: `team-${api.runtime}` });
    expect(kept.status).toBe(200);
    expect(kept.text).not.toContain(provider.clientSecret);
    // The kept secret still works with the provider: a sign-in reaches the callback's checks.
    const { answer } = await ssoSignIn(api, provider, 'eve');
    expect(answer.headers.location).toBe('/sign-in?error=domain_not_allowed');
    expect(api.logs.join('\n')).not.toContain(provider.clientSecret);
  });

  it('refuses an http issuer that is not this machine, and a first PUT without a secret', async () => {
    const cleartext = await putSettings(api, provider, { issuer: 'http://idp.example.com' });
    expect(cleartext.status).toBe(400);
    expect(cleartext.body.details).toEqual([
      { path: 'issuer', message: 'The issuer must be an https:// URL.' },
    ]);
    const other = await api.createTenant(`Sso${api.runtime}`);
    const noSecret = await putSettings(api, provider, { client_secret: undefined }, other.key);
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.details?.[0]?.path).toBe('client_secret');
    const slugTaken = await putSettings(api, provider, { slug: `team-${api.runtime}` }, other.key);
    expect(slugTaken.status).toBe(400);
    expect(slugTaken.body.details?.[0]?.path).toBe('slug');
  });

  it('redirects to the provider with PKCE (S256), state and nonce, by tenant id or slug', async () => {
    for (const tenant of [api.tenantId, `team-${api.runtime}`]) {
      const res = await browserGet(api, `/v1/sso/start?tenant=${tenant}`);
      expect(res.status).toBe(302);
      const url = new URL(res.headers.location ?? '');
      expect(url.origin).toBe(provider.issuer);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
      expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
      expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
      expect(url.searchParams.get('client_id')).toBe(provider.clientId);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('sends an unknown team back to the sign-in page', async () => {
    const res = await browserGet(api, '/v1/sso/start?tenant=no-such-team');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/sign-in?error=sso_not_configured');
  });

  it('refuses a next that leads off Vigil (open redirect)', async () => {
    for (const next of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      '/%0d%0aX',
    ]) {
      const res = await browserGet(
        api,
        `/v1/sso/start?tenant=${api.tenantId}&next=${encodeURIComponent(next)}`,
      );
      expect(res.status, next).toBe(302);
      expect(res.headers.location, next).toMatch(/^\/sign-in\?error=invalid_next$|^http:\/\/127\.0\.0\.1/);
      if (!next.startsWith('/%')) expect(res.headers.location, next).toBe('/sign-in?error=invalid_next');
    }
  });

  it('refuses an e-mail outside the allowed domains, and the same state a second time', async () => {
    const { callback, answer } = await ssoSignIn(api, provider, 'eve');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/sign-in?error=domain_not_allowed');
    expect(answer.headers['set-cookie'] ?? '').not.toContain('vigil_session=');
    const replay = await browserGet(api, pathOf(callback));
    expect(replay.headers.location).toBe('/sign-in?error=invalid_state');
    const team = await api.request('GET', '/v1/settings/users', { key: api.adminKey });
    expect(JSON.stringify(team.body)).not.toContain('eve@other.org');
  });

  it('refuses an e-mail with two @ whose last part is an allowed domain', async () => {
    const { answer } = await ssoSignIn(api, provider, 'mallory');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/sign-in?error=invalid_email');
    expect(answer.headers['set-cookie'] ?? '').not.toContain('vigil_session=');
    const team = await api.request('GET', '/v1/settings/users', { key: api.adminKey });
    expect(JSON.stringify(team.body)).not.toContain('evil.test');
  });

  it('refuses an unverified e-mail', async () => {
    const { answer } = await ssoSignIn(api, provider, 'uma');
    expect(answer.headers.location).toBe('/sign-in?error=email_unverified');
    const team = await api.request('GET', '/v1/settings/users', { key: api.adminKey });
    expect(JSON.stringify(team.body)).not.toContain('uma@example.com');
  });

  it('refuses a state it never issued', async () => {
    const started = await browserGet(api, `/v1/sso/start?tenant=${api.tenantId}`);
    const back = await provider.signInAt(started.headers.location ?? '', 'ada');
    back.searchParams.set('state', 'forged-state-value-0123456789');
    const res = await browserGet(api, pathOf(back));
    expect(res.headers.location).toBe('/sign-in?error=invalid_state');
    const none = await browserGet(api, '/v1/sso/callback?code=abc');
    expect(none.headers.location).toBe('/sign-in?error=invalid_state');
  });
});
