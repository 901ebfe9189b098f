import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/lambda-http/edge-address.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';

// Failed authentications through the console's CloudFront edge: every request arrives from the
// harness's one source address (the edge), yet each viewer is limited on its own when the edge
// proves itself with the secret, and a caller without it cannot pick its address.

const SECRET = 'edge-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const LIMIT = 3;
/** Well formed, but issued to nobody. */
const WRONG_KEY = generateApiKey();

describe('per-address failure limit behind the console edge (api Lambda)', () => {
  let h: LambdaHarness;

  beforeAll(async () => {
    h = await startLambdaHarness({
      // The cloud counts failures in fixed one-minute windows: on the wall clock, a test crossing a
      // minute boundary would start over with a fresh allowance. A clock that stands still does not.
      clock: createFakeClock(Date.parse('2026-01-01T00:00:10.000Z')),
      env: {
        // One limit for the key and the address: the first block stops the whole viewer address.
        VIGIL_AUTH_FAILURE_LIMIT: String(LIMIT),
        VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: String(LIMIT),
        VIGIL_EDGE_SECRET: SECRET,
      },
    });
  });
  afterAll(() => h.close());

  const viaEdge = (viewer: string, key = WRONG_KEY, secret = SECRET) =>
    h.request('GET', '/v1/me', {
      key,
      headers: { [EDGE_SECRET_HEADER]: secret, [VIEWER_ADDRESS_HEADER]: viewer },
    });

  it('limits two viewers behind the same edge address separately', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await viaEdge('203.0.113.10')).status).toBe(401);
    const blocked = await viaEdge('203.0.113.10');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatch(/failed authentications from this address/);
    // The locked-out viewer's correct key is refused too, as for any blocked address.
    expect((await viaEdge('203.0.113.10', h.adminKey)).status).toBe(429);

    // Another viewer behind the same edge: its own allowance, and its correct key works.
    expect((await viaEdge('2001:db8::20', h.adminKey)).status).toBe(200);
    expect((await viaEdge('2001:db8::20')).status).toBe(401);
    expect((await viaEdge('2001:db8::20', h.adminKey)).status).toBe(200);
  });

  it('counts a forged viewer address without the secret against the connection address', async () => {
    // A direct caller rotating forged addresses (wrong secret) is one address: the edge's.
    for (let i = 0; i < LIMIT; i += 1)
      expect((await viaEdge(`198.51.100.${i + 1}`, WRONG_KEY, 'not-the-secret')).status).toBe(401);
    expect((await viaEdge('198.51.100.99', WRONG_KEY, 'not-the-secret')).status).toBe(429);
    // Viewers proven by the edge are not caught by that block.
    expect((await viaEdge('203.0.113.30', h.adminKey)).status).toBe(200);
  });
});
