import { describe, expect, it } from 'vitest';
import { createRateLimitGuard } from '../../lib/auth/limits/rate-limit.ts';
import type { Principal } from '../../lib/domain/principal.ts';
import type { HttpRequest } from '../../lib/http/types.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { RateLimitedError, UnauthorizedError } from '../../lib/platform/errors.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import type { RateLimiter } from '../../lib/platform/rate-limiter.ts';

const principal: Principal = {
  tenantId: 'tnt_1',
  userId: 'usr_1',
  keyId: 'key_1',
  role: 'admin',
  readOnly: false,
};

function request(authorization?: string): HttpRequest {
  return {
    method: 'GET',
    path: '/v1/me',
    query: {},
    headers: authorization ? { authorization } : {},
    body: Buffer.alloc(0),
    requestId: 'r1',
    sourceIp: '192.0.2.1',
  };
}

const NO_LIMITS = {
  rateLimit: undefined,
  tenantRateLimit: undefined,
  authFailuresPerMinute: 0,
  authFailuresPerAddressPerMinute: 0,
};

const broken: RateLimiter = {
  take: () => Promise.reject(new Error('table unavailable')),
  peek: () => Promise.reject(new Error('table unavailable')),
};

describe('rate-limit configuration', () => {
  it('defaults to 20 requests per second, a burst of 100 and 10 failed authentications a minute', () => {
    const config = loadConfig('local', {});

    expect(config.rateLimit).toEqual({ perSecond: 20, burst: 100 });
    expect(config.authFailuresPerMinute).toBe(10);
  });

  it('defaults the tenant ceiling to 5 keys’ worth and the address ceiling to 10 keys’ failures', () => {
    const defaults = loadConfig('local', {});
    const derived = loadConfig('local', {
      VIGIL_RATE_LIMIT_RPS: '2',
      VIGIL_RATE_LIMIT_BURST: '7',
      VIGIL_AUTH_FAILURE_LIMIT: '4',
    });

    expect(defaults.tenantRateLimit).toEqual({ perSecond: 100, burst: 500 });
    expect(defaults.authFailuresPerAddressPerMinute).toBe(100);
    expect(derived.tenantRateLimit).toEqual({ perSecond: 10, burst: 35 });
    expect(derived.authFailuresPerAddressPerMinute).toBe(40);
  });

  it('takes the tenant and address ceilings as set, 0 turning them off', () => {
    const set = loadConfig('local', {
      VIGIL_RATE_LIMIT_TENANT_RPS: '50',
      VIGIL_RATE_LIMIT_TENANT_BURST: '60',
      VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '25',
    });

    expect(set.tenantRateLimit).toEqual({ perSecond: 50, burst: 60 });
    expect(set.authFailuresPerAddressPerMinute).toBe(25);
    expect(loadConfig('local', { VIGIL_RATE_LIMIT_TENANT_RPS: '0' }).tenantRateLimit).toBeUndefined();
    expect(loadConfig('local', { VIGIL_RATE_LIMIT_RPS: '0' }).tenantRateLimit).toBeUndefined();
    expect(loadConfig('local', { VIGIL_AUTH_FAILURE_LIMIT: '0' }).authFailuresPerAddressPerMinute).toBe(0);
    expect(() => loadConfig('local', { VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '-1' })).toThrow(
      /VIGIL_AUTH_FAILURE_ADDRESS_LIMIT/,
    );
  });

  it('turns the per-key limit off when either variable is 0', () => {
    expect(loadConfig('local', { VIGIL_RATE_LIMIT_RPS: '0' }).rateLimit).toBeUndefined();
    expect(loadConfig('local', { VIGIL_RATE_LIMIT_BURST: '0' }).rateLimit).toBeUndefined();
  });

  it('refuses a negative or non-numeric limit', () => {
    expect(() => loadConfig('local', { VIGIL_RATE_LIMIT_RPS: '-1' })).toThrow(/VIGIL_RATE_LIMIT_RPS/);
    expect(() => loadConfig('local', { VIGIL_RATE_LIMIT_BURST: 'many' })).toThrow(/VIGIL_RATE_LIMIT_BURST/);
  });
});

describe('the rate-limit step', () => {
  it('lets requests through and logs a warning when the limiter fails', async () => {
    const logs: string[] = [];
    const guard = createRateLimitGuard({
      limiter: broken,
      config: { ...NO_LIMITS, rateLimit: { perSecond: 1, burst: 5 }, authFailuresPerMinute: 3 },
      logger: createLogger({ level: 'debug', write: (line) => logs.push(line) }),
    });

    const admission = await guard.admit(request('Bearer k'), async () => principal);

    expect(admission).toEqual({ principal, headers: {} });
    expect(logs.some((line) => line.includes('rate limiter unavailable'))).toBe(true);
  });

  it('keeps the authenticator error when the failure count cannot be written', async () => {
    const guard = createRateLimitGuard({
      limiter: broken,
      config: { ...NO_LIMITS, authFailuresPerMinute: 3 },
      logger: createLogger({ level: 'silent' }),
    });

    await expect(
      guard.admit(request('Bearer wrong'), () => Promise.reject(new UnauthorizedError())),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('puts the RateLimit-* headers on its 429 as well', async () => {
    const limiter: RateLimiter = {
      take: async () => ({
        allowed: false,
        limit: 5,
        remaining: 0,
        resetSeconds: 4.2,
        retryAfterSeconds: 0.3,
      }),
      peek: async () => ({ allowed: true, limit: 3, remaining: 3, resetSeconds: 0, retryAfterSeconds: 0 }),
    };
    const guard = createRateLimitGuard({
      limiter,
      config: { ...NO_LIMITS, rateLimit: { perSecond: 1, burst: 5 }, authFailuresPerMinute: 3 },
      logger: createLogger({ level: 'silent' }),
    });

    const error = await guard.admit(request('Bearer k'), async () => principal).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).headers).toEqual({
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '5',
      'Retry-After': '1',
    });
  });
});
