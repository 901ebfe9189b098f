import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_CACHE_MS } from '../../lib/auth/authenticate.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * The tenant a ping reads (lib/push/pings/ping-tenants.ts): an enabled tenant is reused for
 * AUTH_CACHE_MS, as an API key's is, so a ping reads no tenant item then (issue 78 point 6); a
 * tenant the operator disabled is refused within it (403), and never cached while disabled.
 */
describe.each(bothRuntimes)("a ping's tenant ($runtime runtime)", ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('is refused within AUTH_CACHE_MS once disabled, and answered again once enabled', async () => {
    const { token } = await kit.pushCheck();
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
    await api.operator(['tenant', 'disable', api.tenantId]);
    try {
      // Read a moment ago: still the enabled tenant of the cache.
      clock.advance(AUTH_CACHE_MS - 1);
      expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
      clock.advance(1);
      const refused = await api.request('GET', `/ping/${token}`);
      expect({ status: refused.status, text: refused.text }).toMatchObject({ status: 403 });
      clock.advance(1);
      expect((await api.request('GET', `/ping/${token}`)).status).toBe(403);
    } finally {
      await api.operator(['tenant', 'enable', api.tenantId]);
    }
    // A disabled tenant is not cached: enabled again, its next ping is answered.
    clock.advance(1);
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
  });
});
