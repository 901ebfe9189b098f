import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateLocationKey } from '../../lib/locations/location-key.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const START = Date.parse('2026-03-01T00:00:00.000Z');

describe.each(runtimes)('who may call /v1/agent/* ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let locationKey: string;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    api = await start({
      clock,
      env: { VIGIL_AUTH_FAILURE_LIMIT: '3', VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '3' },
    });
    const created = await api.request('POST', '/v1/locations', {
      key: api.adminKey,
      body: { name: 'office', kind: 'agent' },
    });
    locationKey = created.body.key;
  });
  afterAll(async () => {
    await api?.close();
  });
  // Each test starts with the failed-authentication buckets full again (they refill in a minute).
  beforeEach(() => {
    clock.advance(60_000);
  });

  const beat = (key: string | undefined, body: unknown = { version: '1.0.0' }) =>
    api.request('POST', '/v1/agent/heartbeat', { key, body });

  it('refuses an API key on the agent routes with 401', async () => {
    const res = await beat(api.adminKey);

    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'missing or invalid location key', code: 'UNAUTHORIZED' });
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a location key everywhere but the agent routes with 401', async () => {
    const answers = await Promise.all([
      api.request('GET', '/v1/me', { key: locationKey }),
      api.request('GET', '/v1/locations', { key: locationKey }),
      api.request('POST', '/v1/locations', { key: locationKey, body: { name: 'x', kind: 'agent' } }),
    ]);

    expect(answers.map((r) => r.status)).toEqual([401, 401, 401]);
  });

  it('refuses a request without a key with 401, and checks the body only once the key is known', async () => {
    const none = await beat(undefined);
    const invalid = await beat(locationKey, { version: '' });

    expect(none.status).toBe(401);
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_ERROR');
  });

  it('refuses the location keys of a disabled tenant with 403 ACCOUNT_DISABLED', async () => {
    const other = await api.createTenant('Disabled');
    const created = await api.request('POST', '/v1/locations', {
      key: other.key,
      body: { name: 'office', kind: 'agent' },
    });
    expect((await beat(created.body.key)).status).toBe(200);
    clock.advance(60_000);

    await api.operator(['tenant', 'disable', other.tenantId]);
    const refused = await beat(created.body.key);

    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ACCOUNT_DISABLED');
  });

  it('counts wrong location keys against the source address: past the limit a right key gets 429 too', async () => {
    const wrong = [];
    for (let i = 0; i < 3; i += 1) wrong.push(await beat(generateLocationKey()));

    const right = await beat(locationKey);

    expect(wrong.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('RATE_LIMITED');
  });
});
