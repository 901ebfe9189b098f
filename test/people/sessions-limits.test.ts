import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { join, uniqueEmail } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { GOOD_PASSWORD, setPassword, signIn } from './session-helpers.ts';

// On a minute boundary: the cloud's windows and the local buckets both start full.
const START = Date.parse('2026-01-01T00:00:00.000Z');
const WRONG = 'not the password 41';

async function memberWithPassword(api: ApiHarness) {
  const joined = await join(api, api.adminKey, { email: uniqueEmail('limit') });
  expect((await setPassword(api, joined.key, { password: GOOD_PASSWORD })).status).toBe(204);
  return joined;
}

describe.each(runtimes)('failed sign-ins are limited ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    api = await start({
      clock,
      env: { VIGIL_AUTH_FAILURE_LIMIT: '3', VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '5' },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('blocks an account from an address after 3 wrong passwords, the right one included, not other accounts', async () => {
    clock.advance(10 * 60_000);
    const [target, other] = [await memberWithPassword(api), await memberWithPassword(api)];
    for (let i = 0; i < 3; i += 1)
      expect((await signIn(api, { email: target.email, password: WRONG })).status).toBe(401);
    const blocked = await signIn(api, { email: target.email, password: GOOD_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.headers['set-cookie']).toBeUndefined();
    expect((await signIn(api, { email: other.email, password: GOOD_PASSWORD })).status).toBe(204);
    // A minute later the account's bucket has refilled.
    clock.advance(2 * 60_000);
    expect((await signIn(api, { email: target.email, password: GOOD_PASSWORD })).status).toBe(204);
  });

  it('blocks an address trying many accounts (5 failures over all of them)', async () => {
    clock.advance(10 * 60_000);
    const victims = [
      await memberWithPassword(api),
      await memberWithPassword(api),
      await memberWithPassword(api),
    ];
    for (const victim of victims.slice(0, 2))
      for (let i = 0; i < 2; i += 1)
        expect((await signIn(api, { email: victim.email, password: WRONG })).status).toBe(401);
    expect((await signIn(api, { email: uniqueEmail('ghost'), password: WRONG })).status).toBe(401);
    const third = victims[2];
    expect((await signIn(api, { email: third?.email, password: GOOD_PASSWORD })).status).toBe(429);
  });
});
