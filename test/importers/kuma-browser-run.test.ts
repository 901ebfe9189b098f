import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kumaImporter } from '../../lib/importers/kuma.ts';
import { type BrowserSite, startBrowserSite } from '../check-types/support/browser-site.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { browserBackup } from './kuma-browser-backup.ts';

/**
 * A Kuma real-browser monitor, converted, runs: its browser check drafted in the local runtime
 * (Debian's Chromium in the browser runner) against a site on 127.0.0.1 is up where Kuma would be
 * up (a page that answers 200) and down where Kuma would be down (a 404).
 */
describe.each(runtimes)('an imported Kuma real-browser monitor, run ($runtime runtime)', ({ start }) => {
  let site: BrowserSite;
  let api: ApiHarness;
  let entityId: string;

  beforeAll(async () => {
    site = await startBrowserSite();
    api = await start({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    entityId = await newEntity(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  const draft = async (path: string) => {
    const { document } = kumaImporter.convert(browserBackup({ name: 'Site', url: `${site.origin}${path}` }));
    const [{ entity: _entity, ...check } = {}] =
      (document as { checks?: Record<string, unknown>[] }).checks ?? [];
    return api.request('POST', '/v1/checks/run-draft', {
      key: api.adminKey,
      body: { ...check, entity_id: entityId },
    });
  };

  it('loads the page in Chromium and is up on a 200', async () => {
    const run = await draft('/login');

    expect(run.status, run.text).toBe(200);
    expect(run.body, run.text).toMatchObject({
      outcome: 'up',
      details: { steps: [{ action: 'goto', outcome: 'passed' }] },
    });
    expect(site.requests).toContain('GET /login');
  }, 90_000);

  it('is down on a 404, as Kuma is on a status past 399', async () => {
    const run = await draft('/missing');

    expect(run.status, run.text).toBe(200);
    expect(run.body, run.text).toMatchObject({
      outcome: 'down',
      error_message: 'step 1 (goto): the page answered 404',
    });
    expect(site.requests).toContain('GET /missing');
  }, 90_000);
});
