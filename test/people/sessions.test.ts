import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join, uniqueEmail } from '../auth/team-helpers.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import {
  consoleOrigin,
  cookieValue,
  csrfOf,
  GOOD_PASSWORD,
  setPassword,
  signedIn,
  signIn,
  withCookie,
} from './session-helpers.ts';

describe.each(bothRuntimes)('password sign-in and sessions ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;
  /**
   * The member the sign-in tests share: setting a password is a scrypt hash (128 MiB, a core for a
   * few hundred milliseconds), so it is made once. Signing in and out leaves the member as it was;
   * the test of wrong passwords has a member of its own, as failures count against the account.
   */
  let shared: Awaited<ReturnType<typeof member>>;

  beforeAll(async () => {
    api = await start();
    shared = await member();
  });
  afterAll(async () => {
    await api.close();
  });

  /** A new member with a password. */
  async function member(role?: 'admin' | 'member') {
    const joined = await join(api, api.adminKey, { email: uniqueEmail('ses'), ...(role ? { role } : {}) });
    const set = await setPassword(api, joined.key, { password: GOOD_PASSWORD });
    expect(set.status, set.text).toBe(204);
    return joined;
  }

  it('signs in with e-mail and password: an HttpOnly, SameSite=Lax session cookie that reads as the user', async () => {
    const joined = shared;
    const res = await signIn(api, { email: joined.email.toUpperCase(), password: GOOD_PASSWORD });
    expect(res.status, res.text).toBe(204);
    const setCookie = res.headers['set-cookie'] ?? '';
    expect(setCookie).toMatch(/^vigil_session=vss_[0-9A-Za-z]{40}; /);
    expect(setCookie).toContain('; HttpOnly');
    expect(setCookie).toContain('; SameSite=Lax');
    expect(setCookie).toContain('; Path=/');
    expect(setCookie).toContain(`; Max-Age=${30 * 86_400}`);
    // The cloud is served over https only; the local server says Secure only when the request came over https.
    if (runtime === 'lambda') expect(setCookie).toContain('; Secure');
    else expect(setCookie).not.toContain('Secure');

    const session = cookieValue(res);
    const me = await withCookie(api, 'GET', '/v1/me', session);
    expect(me.status, me.text).toBe(200);
    expect(me.body.user).toMatchObject({ id: joined.userId, email: joined.email, role: 'member' });
    expect(me.body.credential).toBe('session');
    expect(me.body.key.id).toMatch(/^ses_/);
    expect(me.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A key says it is one, and has no CSRF token.
    const byKey = await api.request('GET', '/v1/me', { key: joined.key });
    expect(byKey.body).toMatchObject({ credential: 'key', csrf_token: null });
    // The raw id is nowhere in a response or the logs.
    expect(me.text).not.toContain(session);
    expect(api.logs.join('\n')).not.toContain(session);
    expect(api.logs.join('\n')).not.toContain(GOOD_PASSWORD);
  });

  if (runtime === 'local')
    it('marks the cookie Secure when the request came over https', async () => {
      const joined = shared;
      const res = await signIn(
        api,
        { email: joined.email, password: GOOD_PASSWORD },
        { 'x-forwarded-proto': 'https' },
      );
      expect(res.status).toBe(204);
      expect(res.headers['set-cookie']).toContain('; Secure');
    });

  it('answers a wrong password and an unknown e-mail alike: 401, no cookie', async () => {
    const joined = await member();
    const wrong = await signIn(api, { email: joined.email, password: `${GOOD_PASSWORD}x` });
    const unknown = await signIn(api, { email: uniqueEmail('nobody'), password: GOOD_PASSWORD });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error).toBe('wrong e-mail or password');
    // A member without a password cannot sign in with one.
    const noPassword = await join(api, api.adminKey);
    expect((await signIn(api, { email: noPassword.email, password: GOOD_PASSWORD })).status).toBe(401);
  });

  it('refuses a sign-in from another site’s page (login CSRF): 403, no cookie; the console’s own origin signs in', async () => {
    const joined = shared;
    const body = { email: joined.email, password: GOOD_PASSWORD };
    const foreign = await signIn(api, body, { ...consoleOrigin(api), origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('FORBIDDEN');
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const own = await signIn(api, body, consoleOrigin(api));
    expect(own.status, own.text).toBe(204);
    expect(cookieValue(own)).toMatch(/^vss_/);
  });

  it('refuses a cookie write without the CSRF token or from another origin, and takes one with both', async () => {
    const joined = shared;
    const session = await signedIn(api, joined.email);
    const csrf = await csrfOf(api, session);
    const body = { label: 'from the console' };

    const noToken = await withCookie(api, 'POST', '/v1/auth/keys', session, {
      body,
      headers: consoleOrigin(api),
    });
    expect(noToken.status).toBe(403);
    const wrongToken = await withCookie(api, 'POST', '/v1/auth/keys', session, { body, csrf: `${csrf}x` });
    expect(wrongToken.status).toBe(403);
    const otherOrigin = await withCookie(api, 'POST', '/v1/auth/keys', session, {
      body,
      csrf,
      headers: { origin: 'https://evil.example' },
    });
    expect(otherOrigin.status).toBe(403);
    const noOrigin = await api.request('POST', '/v1/auth/keys', {
      body,
      headers: { cookie: `vigil_session=${session}`, 'x-csrf-token': csrf },
    });
    expect(noOrigin.status).toBe(403);

    const good = await withCookie(api, 'POST', '/v1/auth/keys', session, { body, csrf });
    expect(good.status, good.text).toBe(201);
    expect(good.body.user_id).toBe(joined.userId);
  });

  it('lets a Bearer key win over a cookie: no CSRF token needed, the key is who calls', async () => {
    const joined = shared;
    const session = await signedIn(api, joined.email);
    const res = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'by key' },
      headers: { cookie: `vigil_session=${session}`, origin: 'https://evil.example' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.user_id).not.toBe(joined.userId);
    const me = await api.request('GET', '/v1/me', {
      key: api.adminKey,
      headers: { cookie: `vigil_session=${session}` },
    });
    expect(me.body.credential).toBe('key');
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const joined = shared;
    const session = await signedIn(api, joined.email);
    const csrf = await csrfOf(api, session);
    expect((await withCookie(api, 'DELETE', '/v1/session', session)).status).toBe(403);
    const out = await withCookie(api, 'DELETE', '/v1/session', session, { csrf });
    expect(out.status, out.text).toBe(204);
    expect(out.headers['set-cookie']).toMatch(/^vigil_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax/);
    const after = await withCookie(api, 'GET', '/v1/me', session);
    expect(after.status).toBe(401);
  });

  it('gives a new session on every sign-in, ignoring a cookie sent along (no fixation)', async () => {
    const joined = shared;
    const planted = await signedIn(api, joined.email);
    const res = await signIn(
      api,
      { email: joined.email, password: GOOD_PASSWORD },
      { cookie: `vigil_session=${planted}` },
    );
    expect(res.status).toBe(204);
    const fresh = cookieValue(res);
    expect(fresh).not.toBe(planted);
    const csrf = await csrfOf(api, planted);
    expect((await withCookie(api, 'DELETE', '/v1/session', planted, { csrf })).status).toBe(204);
    expect((await withCookie(api, 'GET', '/v1/me', planted)).status).toBe(401);
    expect((await withCookie(api, 'GET', '/v1/me', fresh)).status).toBe(200);
    // A made-up id is no session.
    expect((await withCookie(api, 'GET', '/v1/me', `vss_${'a'.repeat(40)}`)).status).toBe(401);
  });
});
