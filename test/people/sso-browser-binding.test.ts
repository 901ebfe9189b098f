import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.ts';
import { withCookie } from './session-helpers.ts';
import { ACCOUNTS, browserGet, CALLBACK, pathOf, putSettings, SSO_ENV, ssoStart } from './sso-helpers.ts';

/** The session id of a callback's Set-Cookie, or '' when it starts none. */
const sessionOf = (setCookie: string | undefined) =>
  /(?:^|, )vigil_session=([^;]+)/.exec(setCookie ?? '')?.[1] ?? '';

describe.each(bothRuntimes)(
  'an SSO sign-in belongs to the browser that started it ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;
    let provider: TestProvider;
    const members = async () =>
      JSON.stringify((await api.request('GET', '/v1/settings/users', { key: api.adminKey })).body);

    beforeAll(async () => {
      provider = await startTestProvider({ redirectUri: CALLBACK, accounts: ACCOUNTS });
      api = await start({ env: SSO_ENV });
      expect((await putSettings(api, provider)).status).toBe(200);
    });
    afterAll(async () => {
      await api?.close();
      await provider?.close();
    });

    it('sets an HttpOnly, SameSite=Lax cookie scoped to the callback when the sign-in starts', async () => {
      const res = await browserGet(api, `/v1/sso/start?tenant=${api.tenantId}`);
      expect(res.status).toBe(302);
      const cookie = res.headers['set-cookie'] ?? '';
      expect(cookie).toMatch(/^vigil_sso=[\w-]{43}; /);
      expect(cookie).toMatch(/; Path=\/v1\/sso\/callback(;|$)/);
      expect(cookie).toMatch(/; HttpOnly(;|$)/);
      expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
      expect(cookie).toMatch(/; Max-Age=600(;|$)/);
      // The cloud always serves over https; the local runtime here serves http://vigil.test.
      expect(/; Secure(;|$)/.test(cookie)).toBe(api.runtime === 'lambda');
    });

    it('refuses a callback opened in a browser without the cookie, and signs no one in', async () => {
      // The attacker's own sign-in, its callback URL sent to a victim whose browser never started one.
      const { callback } = await ssoStart(api, provider, 'grace');
      const victim = await browserGet(api, pathOf(callback));
      expect(victim.status).toBe(302);
      expect(victim.headers.location).toBe('/sign-in?error=invalid_state');
      expect(sessionOf(victim.headers['set-cookie'])).toBe('');
      expect(victim.headers['set-cookie']).toMatch(/^vigil_sso=; Max-Age=0; Path=\/v1\/sso\/callback/);
      expect(await members()).not.toContain('grace@example.com');
    });

    it('refuses a callback opened in a browser that started another sign-in', async () => {
      const attacker = await ssoStart(api, provider, 'grace');
      const victim = await ssoStart(api, provider, 'ada');
      const res = await browserGet(api, pathOf(attacker.callback), { cookie: victim.binding });
      expect(res.headers.location).toBe('/sign-in?error=invalid_state');
      expect(sessionOf(res.headers['set-cookie'])).toBe('');
      expect(await members()).not.toContain('grace@example.com');
    });

    it('signs in the browser that started, with its cookie, once', async () => {
      const { callback, binding } = await ssoStart(api, provider, 'ada');
      expect(binding).toMatch(/^vigil_sso=/);
      const res = await browserGet(api, pathOf(callback), { cookie: `other=1; ${binding}` });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/');
      const session = sessionOf(res.headers['set-cookie']);
      expect(session).not.toBe('');
      // The binding is cleared beside the session: its login is used up.
      expect(res.headers['set-cookie']).toMatch(/(?:^|, )vigil_sso=; Max-Age=0; Path=\/v1\/sso\/callback/);
      expect((await withCookie(api, 'GET', '/v1/me', session)).body.user.email).toBe('ada@example.com');
      const again = await browserGet(api, pathOf(callback), { cookie: binding });
      expect(again.headers.location).toBe('/sign-in?error=invalid_state');
    });
  },
);
