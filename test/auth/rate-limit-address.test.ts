import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, type ApiResponse, runtimes } from '../support/api-harness.ts';

// A fake clock on a minute boundary: the cloud's windows and the local buckets both start full.
const START = Date.parse('2026-01-01T00:00:00.000Z');

async function times(n: number, send: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const out: ApiResponse[] = [];
  for (let i = 0; i < n; i += 1) out.push(await send());
  return out;
}

const statuses = (answers: ApiResponse[]) => answers.map((r) => r.status);

describe.each(runtimes)(
  'failed authentications behind one shared address ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;
    const clock = createFakeClock(START);
    const me = (key: string) => api.request('GET', '/v1/me', { key });
    const accept = (token: string) =>
      api.request('POST', '/v1/settings/users/accept', { body: { token, name: 'Guest' } });

    beforeAll(async () => {
      // 3 failures a minute per key, 6 per address over all keys.
      api = await start({
        clock,
        env: { VIGIL_AUTH_FAILURE_LIMIT: '3', VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '6' },
      });
    });
    afterAll(async () => {
      await api.close();
    });

    it('blocks a wrong key repeated by one client, not another key’s holder behind the same address', async () => {
      const stale = generateApiKey();

      const repeated = await times(10, () => me(stale));
      const neighbour = await me(api.adminKey);

      expect(statuses(repeated)).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
      expect(repeated[3]?.body).toEqual({
        error: 'too many failed authentications from this address',
        code: 'RATE_LIMITED',
      });
      // The blocked attempts were not counted again: the address is still under its ceiling.
      expect(neighbour.status).toBe(200);
    });

    it('stops a caller trying many different keys at the address ceiling, a correct key included', async () => {
      clock.advance(60_000);

      const guesses = await times(7, () => me(generateApiKey()));
      const right = await me(api.adminKey);

      expect(statuses(guesses)).toEqual([401, 401, 401, 401, 401, 401, 429]);
      expect(right.status).toBe(429);
    });

    it('counts wrong invitation tokens as failed authentications', async () => {
      clock.advance(60_000);
      const invited = await api.request('POST', '/v1/settings/users/invite', {
        key: api.adminKey,
        body: { email: 'guest@example.com' },
      });
      const guess = `vgi_${'A'.repeat(40)}`;

      const repeated = await times(4, () => accept(guess));
      const real = await accept(invited.body.token);
      const varied = await times(4, () => accept(`vgi_${generateApiKey().slice(4, 44)}`));

      expect(statuses(repeated)).toEqual([400, 400, 400, 429]);
      expect(repeated[0]?.body.code).toBe('VALIDATION_ERROR');
      expect(real.status, real.text).toBe(201);
      // Three more wrong tokens reach the address ceiling of six.
      expect(statuses(varied)).toEqual([400, 400, 400, 429]);
    });

    it('lets the address try again after the minute', async () => {
      clock.advance(60_000);

      expect((await me(api.adminKey)).status).toBe(200);
    });
  },
);

describe.each(runtimes)('rate limits per address on routes without a key ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    api = await start({ clock, env: { VIGIL_RATE_LIMIT_RPS: '1', VIGIL_RATE_LIMIT_BURST: '5' } });
  });
  afterAll(async () => {
    await api.close();
  });

  it('limits GET /v1/openapi.json per address with Retry-After, never /healthz', async () => {
    const documents = await times(6, () => api.request('GET', '/v1/openapi.json'));
    const health = await times(8, () => api.request('GET', '/healthz'));

    expect(statuses(documents)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(documents[0]?.headers['ratelimit-limit']).toBe('5');
    expect(documents[5]?.body).toEqual({
      error: 'too many requests from this address',
      code: 'RATE_LIMITED',
    });
    expect(Number(documents[5]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(statuses(health).every((s) => s === 200)).toBe(true);
    expect(health[0]?.headers['ratelimit-limit']).toBeUndefined();
  });

  it('leaves requests with a key to their key’s own limit', async () => {
    const me = await api.request('GET', '/v1/me', { key: api.adminKey });

    expect(me.status).toBe(200);
  });
});

describe.each(runtimes)('a ceiling per tenant over all its keys ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    api = await start({
      clock,
      env: {
        VIGIL_RATE_LIMIT_RPS: '1',
        VIGIL_RATE_LIMIT_BURST: '5',
        VIGIL_RATE_LIMIT_TENANT_RPS: '2',
        VIGIL_RATE_LIMIT_TENANT_BURST: '10',
      },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 429 past the tenant’s ceiling however many keys share the load, other tenants untouched', async () => {
    const tenant = await api.createTenant('Minted');
    const keys = [tenant.key];
    for (let i = 0; i < 3; i += 1) {
      const made = await api.request('POST', '/v1/auth/keys', { key: tenant.key, body: { label: `k${i}` } });
      expect(made.status, made.text).toBe(201);
      keys.push(made.body.key);
    }
    clock.advance(60_000);

    // Four keys with a burst of 5 each could send 20; the tenant's burst is 10.
    const answers: ApiResponse[] = [];
    for (let round = 0; round < 4; round += 1)
      for (const key of keys) answers.push(await api.request('GET', '/v1/me', { key }));
    const neighbour = await api.request('GET', '/v1/me', { key: api.adminKey });

    expect(statuses(answers).filter((s) => s === 200)).toHaveLength(10);
    expect(
      statuses(answers)
        .slice(10)
        .every((s) => s === 429),
    ).toBe(true);
    expect(answers[10]?.body).toEqual({
      error: 'too many requests for this account (all its keys together)',
      code: 'RATE_LIMITED',
    });
    expect(Number(answers[10]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(neighbour.status).toBe(200);
  });
});
