import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimitGuard } from '../../lib/auth/limits.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createMemoryRateLimiter } from '../../lib/platform/rate-limiter.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';

/**
 * The ping path's limits (docs/heartbeats.md "Limits", DECISIONS.md "Cron runs (wave 6)"): each
 * push check has its own token bucket (a burst, then a rate) shared by all its ping URLs, and no
 * tenant ceiling applies to pings, so a tenant's cron jobs pinging together at the top of the hour
 * are all answered, and one check's flood never refuses another's ping. Unknown tokens stay limited
 * per source address, wrong slugs per ping key. On a fake clock in both runtimes.
 */

/** Pings per check: 3 at once, then one every 2 s. */
const PING_BURST = 3;
const PING_SECONDS_PER_TOKEN = 2;
/** The tenant's ceiling over its API calls: fewer than the checks below ping together. */
const TENANT_BURST = 20;
const TENANT_WINDOW_MS = 40_000;
const CHECKS = 8;

describe.each(bothRuntimes)('ping limits per check ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
  const tokens: string[] = [];
  const slugs: string[] = [];
  let pingKey: string;

  /** A keyed setup call, after which the tenant's ceiling is whole again (a whole window later). */
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    expect(res.status, res.text).toBeLessThan(300);
    clock.set(clock.now() + TENANT_WINDOW_MS);
    return res.body;
  };
  const ping = (path: string) => api.request('GET', path);

  beforeAll(async () => {
    api = await start({
      clock,
      env: {
        VIGIL_RATE_LIMIT_RPS: '1',
        VIGIL_RATE_LIMIT_BURST: '100',
        VIGIL_RATE_LIMIT_TENANT_RPS: String((TENANT_BURST * 1000) / TENANT_WINDOW_MS),
        VIGIL_RATE_LIMIT_TENANT_BURST: String(TENANT_BURST),
        VIGIL_PING_RATE_LIMIT_RPS: String(1 / PING_SECONDS_PER_TOKEN),
        VIGIL_PING_RATE_LIMIT_BURST: String(PING_BURST),
        VIGIL_AUTH_FAILURE_LIMIT: '3',
        VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '5',
        VIGIL_PING_KEY_GUESS_LIMIT: '4',
      },
    });
    await call('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
    pingKey = (await call('POST', '/v1/settings/ping-key')).ping_key;
    for (let i = 0; i < CHECKS; i += 1) {
      const entity = await call('POST', '/v1/blueprints/cron/entities', {
        slug: `job-${i}`,
        name: `Job ${i}`,
      });
      const check = await call('POST', '/v1/checks', {
        entity_id: entity.id,
        check_type: 'push',
        config: { slug: `job-${i}` },
      });
      tokens.push((await call('POST', `/v1/checks/${check.id}/push-tokens`)).token);
      slugs.push(`/ping/${pingKey}/job-${i}`);
    }
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it("answers every check's burst at once, more pings than the tenant's ceiling allows its API calls", async () => {
    clock.set(clock.now() + 60_000);
    const statuses: number[] = [];
    for (let round = 0; round < PING_BURST; round += 1)
      for (const token of tokens) statuses.push((await ping(`/ping/${token}`)).status);

    expect(statuses.length).toBeGreaterThan(TENANT_BURST);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('refuses a check past its burst with 429 and Retry-After, then admits it at its rate', async () => {
    clock.set(clock.now() + 60_000);
    const [token] = tokens;
    const burst: number[] = [];
    for (let i = 0; i < PING_BURST; i += 1) burst.push((await ping(`/ping/${token}`)).status);
    const over = await ping(`/ping/${token}/start`);

    expect(burst).toEqual(Array(PING_BURST).fill(200));
    expect(over.status).toBe(429);
    expect(over.headers['content-type']).toMatch(/^text\/plain/);
    expect(over.text).toBe('too many pings for this check');
    expect(over.headers['retry-after']).toBe(String(PING_SECONDS_PER_TOKEN));

    clock.set(clock.now() + PING_SECONDS_PER_TOKEN * 1000);
    expect((await ping(`/ping/${token}`)).status).toBe(200);
    expect((await ping(`/ping/${token}`)).status).toBe(429);
  });

  it("never refuses another check's ping for one check's flood; a check's ping URLs share its bucket", async () => {
    clock.set(clock.now() + 60_000);
    const [flooded, , other] = tokens;
    const flood: number[] = [];
    for (let i = 0; i < 30; i += 1) flood.push((await ping(`/ping/${flooded}/fail`)).status);

    expect(flood.filter((s) => s === 200)).toHaveLength(PING_BURST);
    expect(flood.slice(PING_BURST).every((s) => s === 429)).toBe(true);
    // The flooded check's slug URL spends from the same bucket; another check's token and slug do not.
    expect((await ping(slugs[0] ?? '')).status).toBe(429);
    expect((await ping(`/ping/${other}`)).status).toBe(200);
    expect((await ping(slugs[2] ?? '')).status).toBe(200);
  });

  it('still limits unknown tokens per address and wrong slugs per ping key, so a scanner cannot spin', async () => {
    clock.set(clock.now() + 120_000);
    const wrongSlugs: number[] = [];
    for (let i = 0; i < 5; i += 1) wrongSlugs.push((await ping(`/ping/${pingKey}/nothing-${i}`)).status);

    // The ping key's failures from this address (3 a minute) stop it before its guesses (4).
    expect(wrongSlugs).toEqual([404, 404, 404, 429, 429]);
    // Past them even a right slug of that key waits; a check's token does not.
    expect((await ping(slugs[5] ?? '')).status).toBe(429);
    expect((await ping(`/ping/${tokens[5]}`)).status).toBe(200);

    clock.set(clock.now() + 120_000);
    const unknown: number[] = [];
    for (let i = 0; i < 6; i += 1)
      unknown.push((await ping(`/ping/0000000${i}-0000-4000-8000-000000000000`)).status);

    expect(unknown).toEqual([404, 404, 404, 404, 404, 429]);
    expect((await ping(`/ping/${tokens[6]}`)).status).toBe(429);
  });
});

describe('the ping guard at the top of the hour', () => {
  it('admits one ping of each of 10,000 checks of one tenant in the same instant', async () => {
    const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const config = loadConfig('cloud', {});
    const guard = createRateLimitGuard({
      limiter: createMemoryRateLimiter({ clock }),
      instanceLimiter: createMemoryRateLimiter({ clock }),
      config,
      logger: silentLogger,
    });
    let refused = 0;
    for (let i = 0; i < 10_000; i += 1) {
      try {
        await guard.admitPing(`chk_${i}`);
      } catch {
        refused += 1;
      }
    }

    // The default tenant ceiling, which API calls still spend from, holds far fewer.
    expect(config.tenantRateLimit?.burst).toBeLessThan(10_000);
    expect(refused).toBe(0);
  });
});
