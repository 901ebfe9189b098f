import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatusServer } from '../support/status-server.ts';
import { expectNoConsoleErrors, SHOWN_WITHIN_MS, screenshot, seedEntity } from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/** The check page's "Run now": one probe now, its result shown on the page, marked manual in the API. */
describe('console run now', { timeout: 90_000 }, () => {
  let server: Awaited<ReturnType<typeof startStatusServer>>;
  let checkId: string;
  let readOnlyKey: string;

  beforeAll(async () => {
    server = await startStatusServer(200);
    // No first probe: the run is the check's only result.
  });
  const rig = useConsole({
    env: { VIGIL_FIRST_PROBE: 'false', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' },
    seed: async (rig) => {
      const entityId = await seedEntity(rig, { slug: 'web', name: 'Web' }, { slug: 'shop', name: 'Shop' });
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        check_type: 'http',
        target_url: server.url,
        interval_seconds: 3600,
        name: 'Shop home',
      });
      readOnlyKey = (
        await rig.api<{ key: string }>('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true })
      ).body.key;
    },
  });
  afterAll(async () => {
    await server?.close();
  });

  it('probes the check when Run now is pressed and shows what it found', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });

    await p.page.getByRole('button', { name: 'Run now' }).click();

    await p.page.getByText(/^Ran now: up \(\d+ ms\)\.$/).waitFor({ timeout: SHOWN_WITHIN_MS });
    const results = await rig.api<{ results: { manual?: boolean }[] }>(
      'GET',
      `/v1/checks/${checkId}/results`,
    );
    expect(results.body.results).toMatchObject([{ manual: true }]);
    expect(server.hits()).toBe(1);
    await screenshot(p.page, 'check-run-now');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows no Run now to a read-only key', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}`, key: readOnlyKey });
    await p.page.getByRole('heading', { name: /Shop home/ }).waitFor({ timeout: SHOWN_WITHIN_MS });

    expect(await p.page.getByRole('button', { name: 'Run now' }).count()).toBe(0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
