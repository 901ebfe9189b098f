import type { ApiHarness } from '../support/api-harness.ts';
import type { TestAccount, TestProvider } from '../support/oidc-provider.ts';

/** Vigil's origin as the provider's client knows it (VIGIL_PUBLIC_URL in these tests). */
const VIGIL_ORIGIN = 'http://vigil.test';
export const CALLBACK = `${VIGIL_ORIGIN}/v1/sso/callback`;
/** Both runtimes reach the provider on 127.0.0.1, and know their public URL. */
export const SSO_ENV = { VIGIL_ALLOW_PRIVATE_TARGETS: 'true', VIGIL_PUBLIC_URL: VIGIL_ORIGIN };

export const ACCOUNTS: Record<string, TestAccount> = {
  ada: { email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' },
  bob: { email: 'Bob@Example.com', email_verified: true, name: 'Bob' },
  grace: { email: 'grace@example.com', email_verified: true },
  eve: { email: 'eve@other.org', email_verified: true },
  uma: { email: 'uma@example.com', email_verified: false },
  // Two `@`: the part after the last one is an allowed domain, but this is no address there.
  mallory: { email: 'x@evil.test@example.com', email_verified: true },
};

/** A GET as the browser sends it: no key (the harnesses answer redirects as they are). */
export const browserGet = (api: ApiHarness, path: string, headers: Record<string, string> = {}) =>
  api.request('GET', path, { headers });

/** The path and query of a URL, as the harness requests it. */
export const pathOf = (url: URL | string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export async function putSettings(
  api: ApiHarness,
  provider: TestProvider,
  extra: Record<string, unknown> = {},
  key = api.adminKey,
) {
  return api.request('PUT', '/v1/settings/sso', {
    key,
    body: {
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
      email_domains: ['example.com'],
      ...extra,
    },
  });
}

/**
 * /v1/sso/start for the tenant and the provider's pages as `account`: the callback URL and the
 * `vigil_sso=<value>` binding cookie the start handed this browser.
 */
export async function ssoStart(
  api: ApiHarness,
  provider: TestProvider,
  account: string,
  tenant = api.tenantId,
  next?: string,
) {
  const query = new URLSearchParams({ tenant, ...(next !== undefined ? { next } : {}) });
  const started = await browserGet(api, `/v1/sso/start?${query}`);
  if (started.status !== 302 || !started.headers.location?.startsWith(provider.issuer))
    throw new Error(`start answered ${started.status} ${started.headers.location}`);
  const binding = cookieOf(started.headers['set-cookie']);
  return { callback: await provider.signInAt(started.headers.location, account), binding };
}

/** ssoStart, then the callback from the same browser (its binding cookie): Vigil's last answer. */
export async function ssoSignIn(
  api: ApiHarness,
  provider: TestProvider,
  account: string,
  tenant = api.tenantId,
  next?: string,
) {
  const { callback, binding } = await ssoStart(api, provider, account, tenant, next);
  return { callback, binding, answer: await browserGet(api, pathOf(callback), { cookie: binding }) };
}

/** The session cookie's `name=value` a Set-Cookie header carries. */
const cookieOf = (setCookie: string | undefined) => setCookie?.split(';')[0] ?? '';
