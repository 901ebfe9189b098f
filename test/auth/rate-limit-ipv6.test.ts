import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { createRateLimitGuard } from '../../lib/auth/limits/rate-limit.ts';
import { sourceKey } from '../../lib/auth/limits.ts';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/lambda-http/edge-address.ts';
import { totpCode } from '../../lib/people/totp/totp.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { AppError, UnauthorizedError } from '../../lib/platform/errors.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createMemoryRateLimiter } from '../../lib/platform/rate-limiter.ts';
import { GOOD_PASSWORD, setPassword, signIn } from '../people/session-helpers.ts';
import { type ApiHarness, type ApiResponse, startLambdaHarness } from '../support/api-harness.ts';
import { join, uniqueEmail } from './team-helpers.ts';

/**
 * An IPv6 source is counted by its /64 (issue 75 point 6): one host holds a whole /64 and takes a
 * new address in it for each guess, so every per-address limit (failed authentications, failed
 * sign-ins and second-factor codes, keyless routes) counts the /64 as one address. The local
 * runtime's limiter (in memory) through the guard itself (its server sees one socket address per
 * test); the cloud's (DynamoDB Local) over HTTP behind the edge, each request its own viewer address.
 */

const START = Date.parse('2026-01-01T00:00:00.000Z');
/** `2001:db8:7:1::<n>` in one of its many spellings: every one of them is in the same /64. */
const sibling = (n: number) =>
  `2001:0db8:0007:0001:${((n * 7919) % 0x10000).toString(16)}:0:${n.toString(16)}:1`;
const OTHER_64 = '2001:db8:7:2::1';

const statuses = (answers: ApiResponse[]) => answers.map((r) => r.status);

describe('the name a source address is counted by', () => {
  it('is an IPv6 address’s /64, an IPv4 address itself, a mapped IPv4 address its IPv4 form', () => {
    expect(sourceKey('2001:db8:7:1::1')).toBe('2001:db8:7:1::/64');
    expect(sourceKey(sibling(3))).toBe('2001:db8:7:1::/64');
    expect(sourceKey('2001:DB8:7:1:FFFF:FFFF:FFFF:FFFF')).toBe('2001:db8:7:1::/64');
    expect(sourceKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(sourceKey(OTHER_64)).toBe('2001:db8:7:2::/64');
    expect(sourceKey('198.51.100.7')).toBe('198.51.100.7');
    expect(sourceKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(sourceKey(undefined)).toBeUndefined();
  });
});

describe('per-address limits count an IPv6 /64 as one address (local runtime: the in-memory limiter)', () => {
  const clock = createFakeClock(START);
  const guard = createRateLimitGuard({
    limiter: createMemoryRateLimiter({ clock }),
    config: {
      rateLimit: { burst: 5, perSecond: 1 },
      tenantRateLimit: undefined,
      authFailuresPerMinute: 3,
      authFailuresPerAddressPerMinute: 6,
    },
    logger: silentLogger,
  });
  const wrong = () => Promise.reject(new UnauthorizedError());
  const isWrong = (error: unknown) => error instanceof UnauthorizedError;
  /** 'ok', or the refusal's HTTP status. */
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof AppError ? e.status : e),
    );

  it('gives the /64’s addresses one budget of failed authentications, per credential and over all', async () => {
    const repeated = [];
    for (let i = 1; i <= 4; i += 1)
      repeated.push(
        await outcome(guard.attempt({ sourceIp: sibling(i) }, 'login:a@example.com', wrong, isWrong)),
      );
    expect(repeated).toEqual([401, 401, 401, 429]);
    const varied = [];
    for (let i = 10; i <= 13; i += 1)
      varied.push(await outcome(guard.attempt({ sourceIp: sibling(i) }, `key-${i}`, wrong, isWrong)));
    // Three failures counted already: three more reach the address ceiling of six.
    expect(varied).toEqual([401, 401, 401, 429]);
    const right = () => Promise.resolve('in');
    expect(await outcome(guard.attempt({ sourceIp: sibling(99) }, 'key-right', right, isWrong))).toBe(429);
    // Another /64 is another address.
    expect(await outcome(guard.attempt({ sourceIp: OTHER_64 }, 'key-right', right, isWrong))).toBe('ok');
  });

  it('gives the /64’s addresses one bucket on the routes without a key', async () => {
    const answers = [];
    for (let i = 20; i <= 25; i += 1)
      answers.push(await outcome(guard.admitAddress({ sourceIp: sibling(i) })));
    expect(answers).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 429]);
    expect(await outcome(guard.admitAddress({ sourceIp: OTHER_64 }))).toBe('ok');
  });
});

describe('per-address limits count an IPv6 /64 as one address (lambda runtime, behind the edge)', () => {
  const EDGE_SECRET = 'a-test-edge-secret-of-32-characters!';
  const clock = createFakeClock(START);
  let api: ApiHarness;
  const from = (address: string) => ({ [EDGE_SECRET_HEADER]: EDGE_SECRET, [VIEWER_ADDRESS_HEADER]: address });

  beforeAll(async () => {
    api = await startLambdaHarness({
      clock,
      env: {
        VIGIL_AUTH_FAILURE_LIMIT: '3',
        VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '6',
        VIGIL_EDGE_SECRET: EDGE_SECRET,
      },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('stops wrong keys from a /64’s many addresses at the address ceiling, a right key included', async () => {
    const me = (key: string, address: string) =>
      api.request('GET', '/v1/me', { key, headers: from(address) });
    const guesses: ApiResponse[] = [];
    for (let i = 1; i <= 7; i += 1) guesses.push(await me(generateApiKey(), sibling(i)));
    expect(statuses(guesses)).toEqual([401, 401, 401, 401, 401, 401, 429]);
    expect((await me(api.adminKey, sibling(50))).status).toBe(429);
    expect((await me(api.adminKey, OTHER_64)).status).toBe(200);
  });

  it('gives second-factor codes from a /64’s many addresses one budget', async () => {
    clock.advance(5 * 60_000);
    const target = await join(api, api.adminKey, { email: uniqueEmail('v6') });
    expect((await setPassword(api, target.key, { password: GOOD_PASSWORD })).status).toBe(204);
    const enrolled = await api.request('POST', '/v1/me/totp', { key: target.key });
    const confirm = { code: totpCode(enrolled.body.secret, clock.now()) };
    expect(
      (await api.request('POST', '/v1/me/totp/confirm', { key: target.key, body: confirm })).status,
    ).toBe(200);
    const guess = { email: target.email, password: GOOD_PASSWORD, totp: '000000' };
    const answers: ApiResponse[] = [];
    for (let i = 30; i <= 33; i += 1) answers.push(await signIn(api, guess, from(sibling(i))));
    expect(statuses(answers)).toEqual([400, 400, 400, 429]);
    expect(answers[3]?.body.error).toBe('too many failed authentications from this address');
  });
});
