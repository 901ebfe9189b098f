import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import type { PublicRoute, Route } from '../../lib/http/types.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { PRIVATE_PAGE_REFUSAL } from '../../lib/status-pages/access/page-gate.ts';
import { createFixture, fillPath, type TenantFixture } from '../security/route-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

// A fake clock on a minute boundary: the cloud's windows and the local buckets both start full.
const START = Date.parse('2026-01-01T00:00:00.000Z');

/** Routes a key or token authenticates: by the router (API and location keys), or by their handler through the same limits. */
const authenticating = (routes: Route[]) =>
  routes.filter((r) => r.auth !== 'none' || r.limit === 'credential');
/** Routes without a key that the router limits per address. */
const addressLimited = (routes: Route[]) =>
  routes.filter((r) => r.auth === 'none' && (r.limit ?? 'address') === 'address');

describe.each(runtimes)('rate limits over the whole route table ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let fx: TenantFixture;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    api = await start({
      clock,
      env: { VIGIL_AUTH_FAILURE_LIMIT: '3', VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '3' },
    });
    fx = await createFixture(api, api.adminKey);
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 429 on every authenticating route to a blocked address, a correct key included', async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await api.request('GET', '/v1/me', { key: generateApiKey() })).status).toBe(401);

    const failures: string[] = [];
    for (const route of authenticating(api.app.routes)) {
      const body = route.method === 'GET' ? undefined : {};
      const res = await api.request(route.method, fillPath(route, fx), { key: fx.key, body });
      if (res.status !== 429) failures.push(`${route.method} ${route.path} -> ${res.status}`);
    }

    expect(authenticating(api.app.routes).length).toBeGreaterThan(40);
    expect(failures).toEqual([]);
  });

  it('marks every keyless route that answers 401 as authenticating through the limits', () => {
    const own = api.app.routes.filter(
      (r): r is PublicRoute =>
        r.auth === 'none' &&
        (r.schemas.errors?.includes('UNAUTHORIZED') === true ||
          // A private page's 401 is its password form to a reader without the page's cookie: nothing
          // is guessed there (the guess is POST /p/{slug}/access, below), so it stays address-limited.
          (r.schemas.otherErrors?.[401] !== undefined &&
            r.schemas.otherErrors[401] !== PRIVATE_PAGE_REFUSAL[401])),
    );

    expect(own.map((r) => `${r.method} ${r.path} ${r.limit}`).sort()).toEqual([
      'DELETE /v1/mcp credential',
      'GET /v1/mcp credential',
      'POST /in credential',
      'POST /in/{token} credential',
      'POST /p/{slug}/access credential',
      'POST /v1/actions/executions/{exec_id}/events credential',
      'POST /v1/mcp credential',
      'POST /v1/session credential',
      'POST /v2/enqueue credential',
    ]);
  });
});

describe.each(runtimes)('the per-address limit over the keyless routes ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start({
      clock: createFakeClock(START),
      env: { VIGIL_RATE_LIMIT_RPS: '1', VIGIL_RATE_LIMIT_BURST: '2' },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('limits every keyless route per address, /healthz excepted', async () => {
    const limited = addressLimited(api.app.routes);
    const exempt = api.app.routes.filter((r) => r.auth === 'none' && r.limit === 'none');
    // One bucket per address over all of them: two requests empty it.
    for (let i = 0; i < 2; i += 1) await api.request('GET', '/v1/openapi.json');

    const answers = await Promise.all(
      limited.map((r) => api.request(r.method, r.path, { body: r.method === 'GET' ? undefined : {} })),
    );
    const exemptAnswers = await Promise.all(exempt.map((r) => api.request(r.method, r.path)));

    expect(limited.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/settings/users/accept',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-protected-resource/v1/mcp',
      'GET /.well-known/oauth-authorization-server',
      'GET /oauth/authorize',
      'POST /oauth/register',
      'POST /oauth/token',
      'POST /oauth/revoke',
      'GET /v1/sso/start',
      'GET /v1/sso/callback',
      'POST /v1/password-reset',
      'POST /v1/password-reset/confirm',
      'GET /v1/email-confirmations/{tenant_id}/{token}',
      'POST /v1/email-confirmations/{tenant_id}/{token}',
      'GET /p/{slug}',
      'GET /p/{slug}/history',
      'GET /p/{slug}/history/{month}',
      'GET /p/{slug}/status.json',
      'GET /p/{slug}/badge.svg',
      'POST /p/{slug}/subscribe',
      'GET /p/{slug}/confirm/{token}',
      'POST /p/{slug}/confirm/{token}',
      'GET /p/{slug}/subscription/{token}',
      'POST /p/{slug}/subscription/{token}',
      'GET /p/{slug}/feed.rss',
      'GET /p/{slug}/feed.atom',
      'GET /p/{slug}/sso-pass',
      'GET /v1/reports/unsubscribe/{token}',
      'POST /v1/reports/unsubscribe/{token}',
      'GET /ical/{token}.ics',
      'GET /a/{token}',
      'POST /a/{token}',
      'GET /v1/config/schema.json',
      'GET /v1/openapi.json',
    ]);
    expect(answers.map((r) => r.status)).toEqual(limited.map(() => 429));
    expect(exempt.map((r) => r.path)).toEqual(['/healthz']);
    expect(exemptAnswers.map((r) => r.status)).toEqual([200]);
  });
});
