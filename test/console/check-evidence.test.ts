import { buffer } from 'node:stream/consumers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BrowserSite, startBrowserSite } from '../check-types/support/browser-site.ts';
import { type ConsoleRig, expectNoConsoleErrors, SHOWN_WITHIN_MS, seedEntity } from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * A failing browser check's evidence in the console (issue 57), with Debian's Chromium running the
 * check against a site on 127.0.0.1: the check page shows a result's step log with the failing step
 * marked and each stored screenshot beside its step (read with the console's key, as an <img src>
 * cannot carry it) and its Playwright trace to download (the check keeps one on failure); an
 * alert's link (?result=) unfolds that result. The editor's Run now shows a browser draft's steps
 * and its inline screenshots.
 */

/** Fails at its third step: the login page's title is not "Account". */
const failingSteps = (site: BrowserSite) => [
  { action: 'goto', url: `${site.origin}/login` },
  { action: 'screenshot' },
  { action: 'assert', subject: 'title', text: 'Account' },
];

/** The alt text of every <img> matching `selector` that the page decoded (a broken image has no natural width). */
const decodedImages = (page: Page, selector: string): Promise<string[]> =>
  page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].filter((i) => i.complete && i.naturalWidth > 0).map((i) => i.alt)`,
  );

/** The check's newest result, once its run (dispatched: a browser check runs alone) recorded one. */
const firstResult = (rig: ConsoleRig, checkId: string) =>
  // A browser run is a Chromium for seconds (minutes under load): the bound is for a hang only.
  vi.waitFor(
    async () => {
      const listed = await rig.api<{ results: { id: string; success: boolean }[] }>(
        'GET',
        `/v1/checks/${checkId}/results`,
      );
      const [first] = listed.body.results;
      if (!first) throw new Error('no result yet');
      return first;
    },
    { timeout: 100_000, interval: 250 },
  );

describe('console: a browser check’s evidence', { timeout: 120_000 }, () => {
  let site: BrowserSite;
  let entityId: string;
  let checkId: string;
  let resultId: string;

  beforeAll(async () => {
    site = await startBrowserSite();
  });
  const rig = useConsole({
    env: { VIGIL_FIRST_PROBE: 'false', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' },
    seed: async (rig) => {
      entityId = await seedEntity(rig, { slug: 'web', name: 'Web' }, { slug: 'shop', name: 'Shop' });
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        check_type: 'browser',
        name: 'Shop sign-in',
        interval_seconds: 3600,
        timeout_ms: 30_000,
        config: { steps: failingSteps(site), trace: 'on_failure' },
      });
      const run = await rig.api('POST', `/v1/checks/${checkId}/run`);
      expect(run.status).toBe(202);
      const result = await firstResult(rig, checkId);
      expect(result.success).toBe(false);
      resultId = result.id;
    },
  });
  afterAll(async () => {
    await site?.close();
  });

  it('shows the linked failing result’s steps, the failing step marked, and its screenshots', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}?result=${resultId}` });
    const { page } = p;
    const row = page.locator('tr[aria-current="true"]');
    const steps = row.getByRole('list', { name: 'Steps' });

    await row.getByRole('img', { name: 'Screenshot at step 3' }).waitFor({ timeout: SHOWN_WITHIN_MS });
    await row.getByRole('img', { name: 'Screenshot at step 2' }).waitFor({ timeout: SHOWN_WITHIN_MS });

    await row.getByText('3 steps, failed at "3. assert"').waitFor({ timeout: SHOWN_WITHIN_MS });
    expect(await steps.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^1\. goto passed \d+ ms/),
      expect.stringMatching(/^2\. screenshot passed \d+ ms/),
      expect.stringMatching(/^3\. assert failed \d+ ms ← the failing step\n/),
    ]);
    expect(await steps.locator('li[aria-current="step"]').textContent()).toMatch(/^3\. assert failed/);
    expect(await decodedImages(page, 'tr[aria-current="true"] img')).toEqual([
      'Screenshot at step 2',
      'Screenshot at step 3',
    ]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('offers the failing result’s trace for download, with how to open it', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}?result=${resultId}` });
    const { page } = p;
    const row = page.locator('tr[aria-current="true"]');
    const button = row.getByRole('button', { name: 'Download trace' });
    await button.waitFor({ timeout: SHOWN_WITHIN_MS });
    expect(await row.locator('.trace-download').textContent()).toContain(
      'npx playwright show-trace trace.zip',
    );

    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);

    expect(download.suggestedFilename()).toBe('trace.zip');
    const bytes = await buffer(await download.createReadStream());
    // A zip's local file header: PK\x03\x04.
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('reads the screenshots only once a result’s steps are unfolded', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const { page } = p;
    const artifactReads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/artifacts/')) artifactReads.push(r.url());
    });
    const summary = page.getByText('3 steps, failed at "3. assert"');
    await summary.waitFor({ timeout: SHOWN_WITHIN_MS });
    expect(await page.getByRole('img', { name: /^Screenshot at step/ }).count()).toBe(0);

    await summary.click();

    await page.getByRole('img', { name: 'Screenshot at step 3' }).waitFor({ timeout: SHOWN_WITHIN_MS });
    await page.getByRole('img', { name: 'Screenshot at step 2' }).waitFor({ timeout: SHOWN_WITHIN_MS });
    expect(artifactReads.map((u) => new URL(u).pathname).sort()).toEqual([
      `/v1/checks/${checkId}/results/${resultId}/artifacts/step-2.jpg`,
      `/v1/checks/${checkId}/results/${resultId}/artifacts/step-3.jpg`,
    ]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a browser draft’s steps and its screenshots under Run now, storing nothing', async () => {
    const p = await openSignedIn(rig, {
      path: `/checks/new?blueprint=web&entity_id=${entityId}&type=browser`,
    });
    const { page } = p;
    const result = page.getByRole('status', { name: 'Run result' });
    await page.getByLabel(/^Steps \(JSON\)/).fill(JSON.stringify(failingSteps(site)));

    await page.getByRole('button', { name: 'Run now' }).click();

    await result.getByText('down', { exact: true }).waitFor({ timeout: 100_000 });
    await result.getByRole('img', { name: 'Screenshot at step 3' }).waitFor({ timeout: SHOWN_WITHIN_MS });
    expect(await result.getByRole('list', { name: 'Steps' }).getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^1\. goto passed/),
      expect.stringMatching(/^2\. screenshot passed/),
      expect.stringMatching(/^3\. assert failed .*← the failing step/),
    ]);
    expect(await decodedImages(page, 'output[aria-label="Run result"] img')).toEqual([
      'Screenshot at step 2',
      'Screenshot at step 3',
    ]);
    const checks = await rig.api<{ id: string }[]>('GET', '/v1/checks');
    expect(checks.body.map((c) => c.id)).toEqual([checkId]);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
