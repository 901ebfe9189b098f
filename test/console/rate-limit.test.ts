import { describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, openPage, signIn } from './support.ts';
import { useConsole } from './use-console.ts';

/**
 * A key over its rate limit gets 429 with Retry-After; the console waits as asked and reads again
 * instead of showing the page broken. The limit here is 1 request/s in bursts of 4, and while the page
 * loads the test itself spends the same key's allowance (the console signs in with it) until the page
 * has met a 429: on a slow machine a page's requests can come far enough apart that the bucket
 * refills between them, so the page's own requests alone do not make certain it is limited.
 */
describe('console under a tight rate limit', { timeout: 60_000 }, () => {
  const rig = useConsole({
    env: { VIGIL_RATE_LIMIT_RPS: '1', VIGIL_RATE_LIMIT_BURST: '4' },
    seed: async (rig) => {
      for (const slug of ['a', 'b'])
        await rig.api('POST', '/v1/blueprints', { slug, name: slug.toUpperCase(), fields: [] });
    },
  });

  /** Spends the key's allowance, request after request, until the page has met a 429 (at most 20 s). */
  async function spendUntilLimited(limited: readonly string[]): Promise<void> {
    const until = Date.now() + 20_000;
    while (limited.length === 0 && Date.now() < until) await rig.api('GET', '/v1/me');
  }

  it('waits out 429s and shows the status page whole', async () => {
    const p = await openPage(rig);
    const limited: string[] = [];
    p.page.on('response', (res) => {
      if (res.status() === 429) limited.push(res.url());
    });
    await signIn(p.page, rig.key);
    const hogs = Array.from({ length: 3 }, () => spendUntilLimited(limited));
    await p.page.goto('/status');
    await Promise.all(hogs);
    expect(limited.length, 'the page met no 429 while its key had no allowance for 20 s').toBeGreaterThan(0);
    await p.page.getByRole('heading', { name: 'Incident feed' }).waitFor();
    await expect.poll(() => p.page.getByRole('option', { name: 'B' }).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => p.page.getByRole('alert').count(), { timeout: 20_000 }).toBe(0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
