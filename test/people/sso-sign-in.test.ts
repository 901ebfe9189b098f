import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.ts';
import { csrfOf, GOOD_PASSWORD, setPassword, signIn, withCookie } from './session-helpers.ts';
import { ACCOUNTS, CALLBACK, putSettings, SSO_ENV, ssoSignIn } from './sso-helpers.ts';

/** The session id of a callback's Set-Cookie. */
const sessionOf = (setCookie: string | undefined) =>
  /^vigil_session=([^;]+)/.exec(setCookie ?? '')?.[1] ?? '';

describe.each(runtimes)('signing in with SSO ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let provider: TestProvider;
  const members = async () =>
    (await api.request('GET', '/v1/settings/users', { key: api.adminKey })).body as Array<{
      id: string;
      email: string;
      role: string;
      status: string;
      name: string;
    }>;

  beforeAll(async () => {
    provider = await startTestProvider({ redirectUri: CALLBACK, accounts: ACCOUNTS });
    api = await start({ env: SSO_ENV });
    expect((await putSettings(api, provider, { default_role: 'viewer' })).status).toBe(200);
  });
  afterAll(async () => {
    await api?.close();
    await provider?.close();
  });

  it('creates the member with the default role on the first sign-in and signs them in', async () => {
    const { answer } = await ssoSignIn(api, provider, 'ada', api.tenantId, '/checks?view=mine');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/checks?view=mine');
    expect(answer.headers['set-cookie']).toMatch(/^vigil_session=[^;]+;.*HttpOnly/i);
    const ada = (await members()).find((m) => m.email === 'ada@example.com');
    expect(ada).toMatchObject({ role: 'viewer', status: 'active', name: 'Ada Lovelace' });
    const me = await withCookie(api, 'GET', '/v1/me', sessionOf(answer.headers['set-cookie']));
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: ada?.id, role: 'viewer' });
  });

  it('signs the same member in the second time, with a new session', async () => {
    const first = await ssoSignIn(api, provider, 'bob');
    const second = await ssoSignIn(api, provider, 'bob');
    expect(second.answer.headers.location).toBe('/');
    const bobs = (await members()).filter((m) => m.email === 'bob@example.com');
    expect(bobs).toHaveLength(1);
    const a = sessionOf(first.answer.headers['set-cookie']);
    const b = sessionOf(second.answer.headers['set-cookie']);
    expect(a).not.toBe(b);
    const meA = await withCookie(api, 'GET', '/v1/me', a);
    const meB = await withCookie(api, 'GET', '/v1/me', b);
    expect(meA.body.user.id).toBe(bobs[0]?.id);
    expect(meB.body.user.id).toBe(bobs[0]?.id);
  });

  it('gives an invited person the invitation’s role and consumes the invitation', async () => {
    const invited = await api.request('POST', '/v1/settings/users/invite', {
      key: api.adminKey,
      body: { email: 'grace@example.com', role: 'admin' },
    });
    expect(invited.status).toBe(201);
    const { answer } = await ssoSignIn(api, provider, 'grace');
    expect(answer.headers.location).toBe('/');
    const grace = (await members()).filter((m) => m.email === 'grace@example.com');
    expect(grace.map((m) => [m.status, m.role])).toEqual([['active', 'admin']]);
    const accept = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invited.body.token, name: 'Again' },
    });
    expect(accept.status).toBe(400);
  });

  it('signs out of Vigil: the session stops working', async () => {
    const { answer } = await ssoSignIn(api, provider, 'ada');
    const session = sessionOf(answer.headers['set-cookie']);
    const csrf = await csrfOf(api, session);
    const out = await withCookie(api, 'DELETE', '/v1/session', session, { csrf });
    expect(out.status).toBeLessThan(300);
    expect((await withCookie(api, 'GET', '/v1/me', session)).status).toBe(401);
  });

  it('records the first sign-in and a later one in the audit log, never the client secret', async () => {
    const audit = await api.request('GET', '/v1/audit?limit=200', { key: api.adminKey });
    expect(audit.status).toBe(200);
    const bob = (await members()).find((m) => m.email === 'bob@example.com');
    const bobs = audit.body.entries.filter((e: { actor: { id: string } }) => e.actor.id === bob?.id);
    expect(bobs.map((e: { action: string }) => e.action).sort()).toEqual(['member.create', 'session.create']);
    expect(audit.text).not.toContain(provider.clientSecret);
    expect(api.logs.join('\n')).not.toContain(provider.clientSecret);
  });

  it('refuses password sign-in while SSO is required, and allows it again after', async () => {
    const email = (await api.request('GET', '/v1/me', { key: api.adminKey })).body.user.email as string;
    expect((await setPassword(api, api.adminKey, { password: GOOD_PASSWORD })).status).toBeLessThan(300);
    expect((await signIn(api, { email, password: GOOD_PASSWORD })).status).toBe(204);
    expect((await putSettings(api, provider, { client_secret: '********', required: true })).status).toBe(
      200,
    );
    const refused = await signIn(api, { email, password: GOOD_PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await putSettings(api, provider, { client_secret: '********', required: false })).status).toBe(
      200,
    );
    expect((await signIn(api, { email, password: GOOD_PASSWORD })).status).toBe(204);
  });
});
