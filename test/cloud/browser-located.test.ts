import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSite, SITE_PASSWORD, startBrowserSite } from '../check-types/support/browser-site.ts';
import { adminCall, type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';

/**
 * A located browser check on the cloud path: the worker fans its slot out (a job for its agent's
 * location, the slot's decision scheduled) and hands its `default` leg to the browser function, as
 * it does an unlocated browser check's slot; the result that comes back on the probe queue is
 * stored as the default location's, and decides the slot (quorum 2 of 2: one success is enough to
 * be up). Before, the worker probed that leg itself, without a browser, and it always failed.
 * The leg's screenshot is stored in the bucket under the slot's result id, listed on the default
 * location's row and on the decided result, and served by the artifact route.
 */

let site: BrowserSite;
let h: LambdaHarness;

beforeAll(async () => {
  site = await startBrowserSite();
  h = await startLambdaHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('a located browser check in the cloud', () => {
  it('runs its default leg in the browser function and stores it as the default location’s result', async () => {
    await adminCall(h, 'POST', '/v1/locations', { name: 'lab', kind: 'agent' });
    await adminCall(h, 'POST', '/v1/blueprints', { slug: 'web', name: 'Web' });
    const entity = await adminCall(h, 'POST', '/v1/blueprints/web/entities', { slug: 'shop', name: 'Shop' });
    const check = await adminCall(h, 'POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'browser',
      interval_seconds: 3600,
      locations: ['default', 'lab'],
      quorum: 2,
      config: {
        variables: { password: { value: SITE_PASSWORD, secret: true } },
        steps: [
          { action: 'goto', url: `${site.origin}/login` },
          { action: 'fill', selector: '#user', value: 'ada' },
          { action: 'fill', selector: '#password', value: '{{variables.password}}' },
          { action: 'click', selector: '#go' },
          { action: 'wait_for', url: '/account' },
          { action: 'screenshot' },
        ],
      },
    });
    const checkId = String(check.id);

    const run = await h.request('POST', `/v1/checks/${checkId}/run`, { key: h.adminKey });
    await h.runProbeJobs();
    const handedOver = h.browserSqs.sentBodies().length;
    await h.runBrowserJobs();
    await h.runProbeJobs();

    expect(run.status, run.text).toBe(202);
    expect(handedOver).toBe(1);
    expect(h.eventSources.browser.invocations.map((i) => i.failed)).toEqual([[]]);
    expect(site.requests).toContain('GET /account');
    const { results } = await adminCall(h, 'GET', `/v1/checks/${checkId}/results`);
    expect(results).toEqual([
      expect.objectContaining({
        success: true,
        manual: true,
        // Decided early: the lab's agent had not reported, and need not (quorum 2 of 2).
        locations: [
          expect.objectContaining({ location: 'default', outcome: 'up' }),
          expect.objectContaining({ location: 'lab', outcome: 'unknown' }),
        ],
      }),
    ]);
    expect((await adminCall(h, 'GET', `/v1/checks/${checkId}`)).state).toBe('up');
    expect(JSON.stringify(results)).not.toContain(SITE_PASSWORD);

    // The leg's screenshot went to the bucket from the browser function, under the slot's result
    // id: the default location's row lists it (never its bytes) and the api function serves it.
    const [row] = (await adminCall(h, 'GET', `/v1/checks/${checkId}/results?location=default`)).results;
    const url = `/v1/checks/${checkId}/results/${row.id}/artifacts/step-6.jpg`;
    expect(row.details.artifacts).toEqual([{ step: 6, kind: 'screenshot', name: 'step-6.jpg', url }]);
    expect(JSON.stringify(row)).not.toContain('/9j/');
    const image = await h.request('GET', url, { key: h.adminKey });
    expect(image.status, image.text).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    // The slot's decided result (decided by that leg) carries its steps and screenshot.
    expect(results[0].id).toBe(row.id);
    expect(results[0].details).toEqual(row.details);
  }, 90_000);
});
