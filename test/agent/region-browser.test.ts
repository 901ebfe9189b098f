import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regionBrowserRequestSchema } from '../../lib/agent/region-browser.ts';
import {
  type BrowserSite,
  loginSteps,
  SITE_PASSWORD,
  startBrowserSite,
} from '../check-types/support/browser-site.ts';
import { startHttpTarget, TEST_LOCATION_KEY } from '../support/agent-process.ts';
import { inProcessBrowserFunction } from '../support/browser-function.ts';
import { resultKey, startVigilStandIn } from '../support/vigil-stand-in.ts';
import { regionProbeLambda, SLOT } from './region-lambda.ts';

/**
 * An AWS region's browser legs (lib/agent/region-browser.ts): the region's probe function leases a
 * browser check from a stand-in home on 127.0.0.1 and hands it to its region's browser function,
 * which runs it in its Chromium and answers the result the probe function posts. Lambda's
 * synchronous invoke is played in-process: the payload goes as JSON through the browser function's
 * handler as deployed (functions/region-browser.ts), Debian's Chromium standing in for
 * @sparticuz's, and its answer comes back as JSON.
 */

let site: BrowserSite;
beforeAll(async () => {
  site = await startBrowserSite();
});
afterAll(async () => {
  await site?.close();
});

describe('a browser leg in an AWS region', () => {
  it('goes to the region’s browser function, whose steps and vitals the probe function posts', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    const target = await startHttpTarget();
    const browser = inProcessBrowserFunction();
    const invoke = regionProbeLambda(vigil.url, TEST_LOCATION_KEY, browser.invoke);
    // Signs in, then takes a screenshot (kept nowhere: a location's leg keeps none).
    const steps = (password: string) => [...loginSteps(site.origin, password), { action: 'screenshot' }];
    const job = (job_id: string, check: Record<string, unknown>) => ({ job_id, slot: SLOT, check });
    vigil.enqueue(
      job('login', {
        check_type: 'browser',
        timeout_ms: 30_000,
        variables: { password: { value: SITE_PASSWORD, secret: true } },
        steps: steps('{{variables.password}}'),
      }),
      job('wrong', { check_type: 'browser', timeout_ms: 30_000, steps: steps('wrong') }),
      job('api', {
        check_type: 'http',
        target_url: target.url('/ok'),
        expected_status: 200,
        timeout_ms: 2000,
      }),
    );

    try {
      const answer = await invoke();

      expect(answer).toEqual({ leased: 3, answered: 3, unsent: 0, refused: false });
      const stored = (id: string) => vigil.state.stored.get(resultKey({ job_id: id, slot: SLOT }))?.result;
      expect(stored('login')).toMatchObject({
        success: true,
        error_message: '',
        details: {
          steps: steps('').map(({ action }) => ({ action, outcome: 'passed', ms: expect.any(Number) })),
        },
      });
      expect(stored('login')?.details?.vitals?.ttfb_ms).toEqual(expect.any(Number));
      expect(stored('wrong')).toMatchObject({ success: false });
      expect(stored('wrong')?.error_message).toMatch(/^step 5 \(wait_for\): /);
      expect(site.requests).toContain('GET /account');
      // Only the browser checks went to the browser function, as leased; the http check was probed here.
      expect(browser.payloads.map((p) => regionBrowserRequestSchema.parse(p).check.check_type)).toEqual([
        'browser',
        'browser',
      ]);
      expect(stored('api')).toMatchObject({ success: true, status_code: 200 });
      expect(target.hits('/ok')).toBe(1);
      // No screenshot is kept for a location's leg: none travels back, none is posted.
      const posted = JSON.stringify([...vigil.state.stored.values()]);
      expect(posted).not.toMatch(/"artifacts"|"screenshots"|"jpeg"/);
      expect(posted).not.toContain(SITE_PASSWORD);
    } finally {
      await vigil.stop();
      await target.close();
    }
  }, 120_000);
});
