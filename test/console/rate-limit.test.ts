import { describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, openPage, signIn } from './support.ts';
import { useConsole } from './use-console.ts';

/**
 * A key over its rate limit gets 429 with Retry-After; the console waits as asked and reads again
 * instead of showing the page broken. The limit here (1 request/s, bursts of 4) is far below what
 * one page asks for at once.
 */
describe('console under a tight rate limit', { timeout: 60_000 }, () => {
  const rig = useConsole({
    env: { VIGIL_RATE_LIMIT_RPS: '1', VIGIL_RATE_LIMIT_BURST: '4' },
    seed: async (rig) => {
      for (const slug of ['a', 'b'])
        await rig.api('POST', '/v1/blueprints', { slug, name: slug.toUpperCase(), fields: [] });
    },
  });

  it('waits out 429s and shows the status page whole', async () => {
    const p = await openPage(rig);
    const limited: string[] = [];
    p.page.on('response', (res) => {
      if (res.status() === 429) limited.push(res.url());
    });
    await signIn(p.page, rig.key);
    await p.page.goto('/status');
    await p.page.getByRole('heading', { name: 'Incident feed' }).waitFor();
    await expect.poll(() => p.page.getByRole('option', { name: 'B' }).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => p.page.getByRole('alert').count(), { timeout: 20_000 }).toBe(0);
    expect(limited.length).toBeGreaterThan(0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
