import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, type ApiResponse, runtimes } from '../support/api-harness.ts';

// A fake clock that starts on a 5 s boundary: the cloud's window and the local bucket both start full.
const START = Date.parse('2026-01-01T00:00:00.000Z');
const LIMITS = { VIGIL_RATE_LIMIT_RPS: '1', VIGIL_RATE_LIMIT_BURST: '5' };

async function times(n: number, send: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const out: ApiResponse[] = [];
  for (let i = 0; i < n; i += 1) out.push(await send());
  return out;
}

function expectRateLimitHeaders(res: ApiResponse, remaining: number) {
  expect(res.headers['ratelimit-limit']).toBe('5');
  expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
  expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(5);
}

describe.each(runtimes)('rate limits per API key ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    api = await start({ clock, env: LIMITS });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 429 RATE_LIMITED with Retry-After and RateLimit-* headers past the burst', async () => {
    const { key } = await api.createTenant('Burst');

    const answers = await times(6, () => api.request('GET', '/v1/me', { key }));

    expect(answers.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    answers.slice(0, 5).forEach((r, i) => {
      expectRateLimitHeaders(r, 4 - i);
    });
    const refused = answers[5] as ApiResponse;
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'too many requests', code: 'RATE_LIMITED' });
    expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    expectRateLimitHeaders(refused, 0);
  });

  it('leaves other keys alone, even of the same tenant', async () => {
    const { key } = await api.createTenant('Neighbour');
    const second = await api.request('POST', '/v1/auth/keys', { key, body: { label: 'second' } });
    await times(6, () => api.request('GET', '/v1/me', { key }));

    const other = await api.request('GET', '/v1/me', { key: second.body.key });

    expect(second.status).toBe(201);
    expect(other.status).toBe(200);
    expectRateLimitHeaders(other, 4);
  });

  it('counts read-only keys and error answers too', async () => {
    const { key } = await api.createTenant('Reader');
    const created = await api.request('POST', '/v1/auth/keys', {
      key,
      body: { label: 'dashboard', is_read_only: true },
    });
    const readOnly: string = created.body.key;

    const answers = await times(6, () => api.request('GET', '/v1/blueprints/missing', { key: readOnly }));

    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 429]);
    expectRateLimitHeaders(answers[4] as ApiResponse, 0);
  });

  it('admits the key again once the allowance has come back', async () => {
    const { key } = await api.createTenant('Patient');
    await times(6, () => api.request('GET', '/v1/me', { key }));

    clock.advance(5000);
    const again = await api.request('GET', '/v1/me', { key });

    expect(again.status).toBe(200);
  });

  it('sends no RateLimit-* headers on routes without a key', async () => {
    const res = await api.request('GET', '/healthz');

    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe.each(runtimes)('rate limits turned off ($runtime runtime)', ({ start }) => {
  it.each([
    ['VIGIL_RATE_LIMIT_RPS', { VIGIL_RATE_LIMIT_RPS: '0', VIGIL_RATE_LIMIT_BURST: '5' }],
    ['VIGIL_RATE_LIMIT_BURST', { VIGIL_RATE_LIMIT_RPS: '1', VIGIL_RATE_LIMIT_BURST: '0' }],
  ])('admits every request when %s is 0, without RateLimit-* headers', async (_name, env) => {
    const api = await start({ clock: createFakeClock(START), env });
    try {
      const answers = await times(12, () => api.request('GET', '/v1/me', { key: api.adminKey }));

      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect(answers[11]?.headers['ratelimit-limit']).toBeUndefined();
    } finally {
      await api.close();
    }
  });
});

describe.each(runtimes)('failed authentications per address ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    // One limit per key and per address: random keys reach the address's (rate-limit-address.test.ts
    // keeps the two apart).
    api = await start({
      clock,
      env: { VIGIL_AUTH_FAILURE_LIMIT: '3', VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '3' },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 429 to every attempt from the address past the limit, a correct key included', async () => {
    const missing = await times(5, () => api.request('GET', '/v1/me'));
    const wrong = await times(4, () => api.request('GET', '/v1/me', { key: generateApiKey() }));
    const right = await api.request('GET', '/v1/me', { key: api.adminKey });

    expect(missing.every((r) => r.status === 401)).toBe(true); // no key offered: not a guess
    expect(wrong.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(wrong[3]?.body).toEqual({
      error: 'too many failed authentications from this address',
      code: 'RATE_LIMITED',
    });
    expect(Number(wrong[3]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(right.status).toBe(429);
  });

  it('lets the address try again after the minute', async () => {
    clock.advance(60_000);

    const right = await api.request('GET', '/v1/me', { key: api.adminKey });

    expect(right.status).toBe(200);
  });
});
