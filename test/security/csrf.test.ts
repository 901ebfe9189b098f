import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../lib/http/types.ts';
import { consoleOrigin, cookieValue } from '../people/session-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import {
  createFixture,
  diffLines,
  FIXTURE_PASSWORD,
  fillPath,
  sampleBody,
  type TenantFixture,
  tenantSnapshot,
} from './route-fixtures.ts';

/**
 * Cross-site request forgery over the whole route table: the console's session cookie goes with
 * any request a browser sends to the origin, so every write a cookie authenticates must prove it
 * came from the console (docs/auth.md "Sessions"): a same-origin Origin and the session's
 * X-CSRF-Token. Each write route is sent with the cookie and one proof missing or wrong, and must
 * answer 403 and change nothing.
 */
const cookieWrites = (routes: Route[]) => routes.filter((r) => r.auth === 'key' && r.method !== 'GET');

describe.each(runtimes)('CSRF on cookie-authenticated writes ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let fx: TenantFixture;
  let session: string;
  let csrf: string;

  beforeAll(async () => {
    api = await start();
    fx = await createFixture(api, api.adminKey);
    const me = await api.request('GET', '/v1/me', { key: api.adminKey });
    const signIn = await api.request('POST', '/v1/session', {
      body: { email: me.body.user.email, password: FIXTURE_PASSWORD, tenant: api.tenantId },
    });
    expect(signIn.status, signIn.text).toBe(204);
    session = cookieValue(signIn);
    const byCookie = await api.request('GET', '/v1/me', { headers: { cookie: `vigil_session=${session}` } });
    expect(byCookie.status, byCookie.text).toBe(200);
    csrf = byCookie.body.csrf_token;
    expect(csrf).toEqual(expect.any(String));
  });
  afterAll(async () => {
    await api.close();
  });

  it('covers every write route', () => {
    expect(cookieWrites(api.app.routes).length).toBeGreaterThanOrEqual(60);
  });

  it('refuses every write without the token, with a wrong token, or from another origin, and changes nothing', async () => {
    const own = consoleOrigin(api);
    const attempts: [string, Record<string, string>][] = [
      ['no token, no Origin', {}],
      ['no token', own],
      ['a wrong token', { ...own, 'x-csrf-token': `${csrf.slice(0, -2)}xx` }],
      ['another origin', { ...own, origin: 'https://evil.example', 'x-csrf-token': csrf }],
    ];
    const failures: string[] = [];
    for (const route of cookieWrites(api.app.routes)) {
      const before = await tenantSnapshot(api, api.tenantId);
      for (const [what, headers] of attempts) {
        const res = await api.request(route.method, fillPath(route, fx), {
          headers: { cookie: `vigil_session=${session}`, ...headers },
          body: sampleBody(route, fx),
        });
        if (res.status !== 403 || res.body?.code !== 'FORBIDDEN')
          failures.push(`${route.method} ${route.path} (${what}) -> ${res.status} ${res.text.slice(0, 120)}`);
      }
      const after = await tenantSnapshot(api, api.tenantId);
      if (before !== after)
        failures.push(`${diffLines(before, after)} ${route.method} ${route.path} changed data`);
    }
    expect(failures).toEqual([]);
  });

  it('lets a write with both proofs through, and a Bearer key needs neither', async () => {
    const made = await api.request('POST', '/v1/blueprints', {
      headers: { cookie: `vigil_session=${session}`, ...consoleOrigin(api), 'x-csrf-token': csrf },
      body: { slug: 'csrf-ok', name: 'CSRF ok' },
    });
    expect(made.status, made.text).toBe(201);
    const byKey = await api.request('POST', '/v1/blueprints', {
      key: api.adminKey,
      headers: { origin: 'https://evil.example' },
      body: { slug: 'csrf-key', name: 'By key' },
    });
    // A key is no ambient credential: no CSRF token is asked of it, whatever the Origin.
    expect(byKey.status, byKey.text).toBe(201);
  });
});
