import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SECRET_HEADER } from '../../lib/lambda-http/edge-address.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { csrfOf, withCookie } from '../people/session-helpers.ts';
import { ACCOUNTS, CALLBACK, putSettings, SSO_ENV, ssoSignIn } from '../people/sso-helpers.ts';
import { type ApiHarness, adminCall, bothRuntimes, type LocalHarness } from '../support/api-harness.ts';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.ts';
import { requestOnDomain } from './support/on-domain.ts';

/**
 * SSO pages on custom domains (issue 54), on both runtimes with a real OIDC provider on 127.0.0.1:
 * the domain never receives Vigil's session cookie, so its prompt links to the hand-off on Vigil's
 * host (/p/{slug}/sso-pass), which signs the reader in by the team's SSO if need be and redirects
 * to the domain's /sso-pass with a single-use token of 60 s; that sets the domain's cookie naming
 * the session, which the gate reads on every request, so a sign-out shuts the domain at once.
 */

const DOCS = 'docs.acme.test';
const OPS = 'ops.acme.test';
const EDGE_SECRET = 'edge-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const VIGIL = 'http://vigil.test';

describe.each(bothRuntimes)('SSO status pages on custom domains ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let provider: TestProvider;
  // Vigil's clock, from now: the provider's ID tokens are checked against the real time.
  const clock = createFakeClock(Date.now());
  /** Every token and cookie secret the tests saw: none may be stored or logged. */
  const secrets: string[] = [];
  const call = (method: string, path: string, body?: unknown) => adminCall(api, method, path, body);
  const onDomain = (domain: string, path: string, cookie?: string) =>
    requestOnDomain(api, EDGE_SECRET, domain, 'GET', path, cookie ? { headers: { cookie } } : {});
  /** On Vigil's own host; in the cloud /p/* comes through the console's edge, with its secret. */
  const edge = (): Record<string, string> =>
    api.runtime === 'lambda' ? { [EDGE_SECRET_HEADER]: EDGE_SECRET } : {};
  const onVigil = (path: string, session?: string) =>
    api.request('GET', path, {
      headers: { ...edge(), ...(session ? { cookie: `vigil_session=${session}` } : {}) },
    });
  const sessionOf = (setCookie: string | undefined) =>
    /^vigil_session=([^;]+)/.exec(setCookie ?? '')?.[1] ?? '';
  /** The path and query of a URL on any host. */
  const pathOf = (url: string) => {
    const u = new URL(url, VIGIL);
    return `${u.pathname}${u.search}`;
  };
  /** The hand-off on Vigil's host for `session`: the token's URL on the domain. */
  const pass = async (session: string, slug = 'inside', to = '/') => {
    const given = await onVigil(`/p/${slug}/sso-pass?${new URLSearchParams({ to })}`, session);
    expect(given.status, given.text).toBe(302);
    const location = new URL(given.headers.location ?? '');
    secrets.push(location.searchParams.get('token') ?? '');
    return location;
  };
  /** A domain cookie for `session`: the hand-off and the token taken. */
  const domainCookie = async (session: string) => {
    const location = await pass(session);
    const taken = await onDomain(DOCS, pathOf(location.href));
    expect(taken.status, taken.text).toBe(302);
    const cookie = (taken.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    secrets.push(cookie.split('.').at(-1) ?? '');
    return cookie;
  };
  let session = '';

  beforeAll(async () => {
    provider = await startTestProvider({ redirectUri: CALLBACK, accounts: ACCOUNTS });
    api = await start({
      clock,
      env: { ...SSO_ENV, VIGIL_PAGE_DOMAINS: `${DOCS},${OPS}`, VIGIL_EDGE_SECRET: EDGE_SECRET },
    });
    expect((await putSettings(api, provider)).status).toBe(200);
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'api', name: 'Internal API' });
    // Made SSO first, its domain attached after: the PUT gives an SSO page its key.
    await call('POST', '/v1/status-pages', {
      slug: 'inside',
      title: 'Inside Ops',
      entity_ids: [entity.id],
      visibility: 'sso',
    });
    await call('POST', '/v1/status-pages', {
      slug: 'ops',
      title: 'Ops Room',
      visibility: 'sso',
      domain: OPS,
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await provider?.close();
  });

  it('takes a custom domain for an SSO page', async () => {
    const page = await call('GET', '/v1/status-pages/inside');
    const put = await api.request('PUT', '/v1/status-pages/inside', {
      key: api.adminKey,
      body: { title: page.title, entity_ids: page.entity_ids, domain: DOCS },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ visibility: 'sso', domain: DOCS });
  });

  it('hands a reader from the domain’s prompt through SSO on Vigil’s host back to the page on the domain', async () => {
    const shut = await onDomain(DOCS, '/history');
    expect(shut.status).toBe(401);
    expect(shut.headers['cache-control']).toBe('private, no-store');
    expect(shut.text).not.toContain('Inside Ops');
    const link = /href="([^"]+)">Sign in with SSO/.exec(shut.text)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(link).toBe(`${VIGIL}/p/inside/sso-pass?to=%2Fhistory`);

    // Not signed in on Vigil's host: the team's SSO first, coming back to the hand-off.
    const unsigned = await onVigil(pathOf(link));
    expect(unsigned.status).toBe(302);
    const start = new URL(unsigned.headers.location ?? '', VIGIL);
    expect(start.pathname).toBe('/v1/sso/start');
    expect(start.searchParams.get('next')).toBe('/p/inside/sso-pass?to=%2Fhistory');
    const { answer } = await ssoSignIn(
      api,
      provider,
      'ada',
      start.searchParams.get('tenant') ?? '',
      start.searchParams.get('next') ?? '',
    );
    expect(answer.headers.location).toBe('/p/inside/sso-pass?to=%2Fhistory');
    session = sessionOf(answer.headers['set-cookie']);
    expect(session).not.toBe('');

    const location = await pass(session, 'inside', '/history');
    expect(`${location.origin}${location.pathname}`).toBe(`https://${DOCS}/sso-pass`);
    expect(location.searchParams.get('to')).toBe('/history');
    const token = location.searchParams.get('token') ?? '';
    expect(token).toMatch(/^[\w-]{43}$/);
    // Stored by its hash only.
    const hash = createHash('sha256').update(token).digest('hex');
    const stored = await api.table.get(
      { pk: `PAGESSOPASS#${hash}`, sk: '#PAGESSOPASS' },
      { consistent: true },
    );
    expect(stored).toMatchObject({ entity: 'page_sso_pass', token_hash: hash, slug: 'inside', domain: DOCS });
    expect(JSON.stringify(stored)).not.toContain(token);

    const taken = await onDomain(DOCS, pathOf(location.href));
    expect(taken.status, taken.text).toBe(302);
    expect(taken.headers.location).toBe('/history');
    const setCookie = taken.headers['set-cookie'] ?? '';
    expect(setCookie).toMatch(
      /^vigil_page_sso=usr_\w+\.ses_\w+\.[\w-]{43}; Max-Age=[1-9][0-9]*; Path=\/; HttpOnly; SameSite=Lax/,
    );
    expect(setCookie.endsWith('; Secure')).toBe(api.runtime === 'lambda');
    const cookie = setCookie.split(';')[0] ?? '';
    secrets.push(cookie.split('.').at(-1) ?? '');

    const history = await onDomain(DOCS, '/history', cookie);
    expect(history.status, history.text.slice(0, 200)).toBe(200);
    const page = await onDomain(DOCS, '/', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Inside Ops');
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect((await onDomain(DOCS, '/status.json', cookie)).body.title).toBe('Inside Ops');
  }, 60_000);

  it('takes a token once', async () => {
    const location = await pass(session);
    expect((await onDomain(DOCS, pathOf(location.href))).status).toBe(302);
    const again = await onDomain(DOCS, pathOf(location.href));
    expect(again.status).toBe(403);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.text).toContain(`href="${VIGIL}/p/inside/sso-pass?to=%2F"`);
  });

  it('refuses a token after its 60 seconds', async () => {
    const location = await pass(session);
    clock.advance(60_001);
    const late = await onDomain(DOCS, pathOf(location.href));
    expect(late.status).toBe(403);
    expect(late.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a token on another page’s domain, and a domain cookie there', async () => {
    const location = await pass(session);
    const elsewhere = await onDomain(OPS, pathOf(location.href));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers['set-cookie']).toBeUndefined();
    // Spent by the attempt: not good on its own domain either.
    expect((await onDomain(DOCS, pathOf(location.href))).status).toBe(403);
    const cookie = await domainCookie(session);
    expect((await onDomain(DOCS, '/', cookie)).status).toBe(200);
    expect((await onDomain(OPS, '/', cookie)).status).toBe(401);
  });

  it('lands only on a path of the domain: an absolute or scheme-relative `to` becomes /', async () => {
    for (const to of ['https://evil.test/x', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)']) {
      const location = await pass(session, 'inside', to);
      expect(location.searchParams.get('to'), to).toBe('/');
      // A `to` put in the domain's URL by hand is neutralised there too.
      location.searchParams.set('to', to);
      const taken = await onDomain(DOCS, pathOf(location.href));
      expect(taken.status, to).toBe(302);
      expect(taken.headers.location, to).toBe('/');
    }
  });

  it('shuts the domain at the next request once the session signs out on Vigil’s host', async () => {
    const signedIn = sessionOf(
      (await ssoSignIn(api, provider, 'grace', api.tenantId, '/')).answer.headers['set-cookie'],
    );
    const cookie = await domainCookie(signedIn);
    expect((await onDomain(DOCS, '/', cookie)).status).toBe(200);
    const csrf = await csrfOf(api, signedIn);
    expect((await withCookie(api, 'DELETE', '/v1/session', signedIn, { csrf })).status).toBe(204);
    const after = await onDomain(DOCS, '/', cookie);
    expect(after.status).toBe(401);
    expect(after.text).not.toContain('Inside Ops');
  }, 60_000);

  it('gives no token to another team’s SSO session, nor to a key', async () => {
    const other = await api.createTenant(`Other${api.runtime}`);
    expect((await putSettings(api, provider, {}, other.key)).status).toBe(200);
    const theirs = sessionOf(
      (await ssoSignIn(api, provider, 'bob', other.tenantId, '/')).answer.headers['set-cookie'],
    );
    expect(theirs).not.toBe('');
    const refused = await onVigil('/p/inside/sso-pass?to=%2F', theirs);
    expect(refused.status).toBe(302);
    expect(new URL(refused.headers.location ?? '', VIGIL).pathname).toBe('/v1/sso/start');
    const keyed = await api.request('GET', '/p/inside/sso-pass?to=%2F', {
      key: api.adminKey,
      headers: edge(),
    });
    expect(new URL(keyed.headers.location ?? '', VIGIL).pathname).toBe('/v1/sso/start');
    // A page that is not an SSO page with a domain has no hand-off.
    await call('POST', '/v1/status-pages', { slug: 'open', title: 'Open' });
    expect((await onVigil('/p/open/sso-pass?to=%2F', session)).status).toBe(404);
  }, 60_000);

  it('stores and logs no token or cookie secret', async () => {
    expect(secrets.filter((s) => s.length >= 40).length).toBeGreaterThan(5);
    const seen = api.logs.join('\n');
    for (const secret of secrets) expect(seen).not.toContain(secret);
    if (api.runtime !== 'local') return;
    // The local store is files: every byte of them, the WAL included.
    const dir = (api as LocalHarness).dataDir;
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    const stored = files.map((f) => readFileSync(join(f.parentPath, f.name)).toString('latin1')).join('\n');
    for (const secret of secrets) expect(stored).not.toContain(secret);
  });
});
