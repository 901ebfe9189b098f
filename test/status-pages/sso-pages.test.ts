import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join, uniqueEmail } from '../auth/team-helpers.ts';
import { GOOD_PASSWORD, setPassword, signedIn } from '../people/session-helpers.ts';
import { ACCOUNTS, CALLBACK, pathOf, putSettings, SSO_ENV, ssoSignIn } from '../people/sso-helpers.ts';
import { type ApiHarness, adminCall, bothRuntimes } from '../support/api-harness.ts';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.ts';
import { tagProblems } from './support/html-balance.ts';

/**
 * SSO pages on both runtimes (issue 54 item 4): a page whose visibility is `sso` answers its
 * routes only to a console session of its team signed in through the team's SSO (privately, never
 * cached by a shared cache), and to anyone else — no cookie, a key, a password session, another
 * team's SSO session — a page with nothing of it and a link to the team's SSO sign-in, which
 * comes back to the page. A page may be `sso` only once the team has SSO.
 */

describe.each(bothRuntimes)('SSO status pages ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let provider: TestProvider;
  const call = (method: string, path: string, body?: unknown) => adminCall(api, method, path, body);
  const sessionCookie = (setCookie: string | undefined) =>
    /^vigil_session=([^;]+)/.exec(setCookie ?? '')?.[1];
  const read = (path: string, session?: string) =>
    api.request('GET', path, session ? { headers: { cookie: `vigil_session=${session}` } } : {});

  beforeAll(async () => {
    provider = await startTestProvider({ redirectUri: CALLBACK, accounts: ACCOUNTS });
    api = await start({ env: SSO_ENV });
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'api', name: 'Internal API' });
    await call('POST', '/v1/status-pages', { slug: 'inside', title: 'Inside Ops', entity_ids: [entity.id] });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await provider?.close();
  });

  it('refuses sso visibility while the team has no SSO, and a password with it', async () => {
    const refused = await api.request('PUT', '/v1/status-pages/inside', {
      key: api.adminKey,
      body: { title: 'Inside Ops', entity_ids: [], visibility: 'sso' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: 'visibility', message: expect.stringContaining('Set up SSO first') },
    ]);
    expect((await call('GET', '/v1/status-pages/inside')).visibility).toBe('public');
    expect((await putSettings(api, provider)).status).toBe(200);
    const withPassword = await api.request('PUT', '/v1/status-pages/inside', {
      key: api.adminKey,
      body: { title: 'Inside Ops', entity_ids: [], visibility: 'sso', password: 'a long password' },
    });
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.details?.[0]?.path).toBe('password');
  });

  it('answers only a session of its team signed in through SSO; everyone else gets the sign-in link', async () => {
    const page = await call('GET', '/v1/status-pages/inside');
    const updated = await call('PUT', '/v1/status-pages/inside', {
      title: page.title,
      entity_ids: page.entity_ids,
      visibility: 'sso',
    });
    expect(updated.visibility).toBe('sso');

    const anonymous = await read('/p/inside');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('private, no-store');
    expect(anonymous.text).not.toContain('Inside Ops');
    expect(anonymous.text).not.toContain('Internal API');
    expect(tagProblems(anonymous.text)).toEqual([]);
    const link = /href="([^"]+)">Sign in with SSO/.exec(anonymous.text)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(new URL(link, 'http://vigil.test').searchParams.get('next')).toBe('/p/inside');
    for (const path of ['/p/inside/status.json', '/p/inside/feed.rss', '/p/inside/badge.svg'])
      expect((await read(path)).status, path).toBe(401);
    // A key is no reader of a public route.
    expect((await api.request('GET', '/p/inside', { key: api.adminKey })).status).toBe(401);

    // The link: the team's SSO, and back to the page with a session that opens it.
    const { answer } = await ssoSignIn(
      api,
      provider,
      'ada',
      new URL(link, 'http://vigil.test').searchParams.get('tenant') ?? '',
      '/p/inside',
    );
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/p/inside');
    const session = sessionCookie(answer.headers['set-cookie']);
    expect(session).toBeDefined();
    const opened = await read(pathOf(new URL(answer.headers.location ?? '', 'http://vigil.test')), session);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.text).toContain('Inside Ops');
    expect(opened.headers['cache-control']).toBe('private, no-store');
    expect((await read('/p/inside/status.json', session)).body.title).toBe('Inside Ops');

    // A member of the team signed in with a password: not through SSO, so not a reader.
    const joined = await join(api, api.adminKey, { email: uniqueEmail('pw') });
    expect((await setPassword(api, joined.key, { password: GOOD_PASSWORD })).status).toBe(204);
    expect((await read('/p/inside', await signedIn(api, joined.email))).status).toBe(401);

    // Another team's SSO session opens nothing here.
    const other = await api.createTenant(`Other${api.runtime}`);
    expect((await putSettings(api, provider, {}, other.key)).status).toBe(200);
    const elsewhere = await ssoSignIn(api, provider, 'bob', other.tenantId, '/');
    const otherSession = sessionCookie(elsewhere.answer.headers['set-cookie']);
    expect(otherSession).toBeDefined();
    expect((await read('/p/inside', otherSession)).status).toBe(401);
  }, 60_000);
});
