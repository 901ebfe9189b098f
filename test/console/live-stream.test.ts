import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, expectText, SHOWN_WITHIN_MS, seedEntity } from './support.ts';
import { seedCheck, useConsole } from './use-console.ts';

/**
 * The console's live stream under many tabs and typed-URL page loads (issue 25, item 1): the
 * browser allows six HTTP/1.1 connections per host and the server five open streams per key, so a
 * stream per page froze the console. One stream is shared by every tab of the browser.
 */

const TABS = 8;
const NAVIGATIONS = 10;
/** A little over the minute every tab must be hidden before the shared stream closes. */
const HIDDEN_MS = 61_000;

describe('console live stream across tabs', { timeout: 240_000 }, () => {
  let checkId = '';
  let up = true;

  /** Flips the push check (threshold 1), so the entity's state and the status counts change. */
  const flip = async () => {
    up = !up;
    const res = await rig.api('POST', `/v1/checks/${checkId}/results`, {
      success: up,
      latency_ms: 5,
      ...(up ? {} : { error_message: 'connection refused' }),
    });
    expect(res.status).toBe(201);
  };

  const rig = useConsole({
    seed: async (rig) => {
      const entityId = await seedEntity(
        rig,
        { slug: 'service', name: 'Service' },
        { slug: 'checkout', name: 'Checkout' },
      );
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
      });
      await flip();
      await flip();
    },
  });

  /**
   * How many more status streams the admin key may open now (the server's cap is 5 per key): each
   * is opened, then closed again. 4 means the browser holds exactly one.
   */
  const freeStreams = async () => {
    const opened: AbortController[] = [];
    try {
      for (let i = 0; i < 6; i += 1) {
        const abort = new AbortController();
        const res = await fetch(`${rig.url}/v1/status/stream`, {
          headers: { authorization: `Bearer ${rig.key}` },
          signal: abort.signal,
        });
        if (res.status !== 200) {
          await res.body?.cancel();
          break;
        }
        opened.push(abort);
      }
      return opened.length;
    } finally {
      for (const abort of opened) abort.abort();
    }
  };
  /** Waits until the browser holds `n` status streams of the key. */
  const expectBrowserStreams = async (n: number) => {
    await expect
      .poll(freeStreams, { timeout: SHOWN_WITHIN_MS, interval: 500, message: 'streams the browser holds' })
      .toBe(5 - n);
  };

  /** The status page's count of entities in `state`. */
  const count = (page: Page, state: string) => page.getByTestId(`count-${state}`).locator('.n');

  /** The page (loaded by typed URL) is live: the indicator says so and a state change shows without a reload. */
  const expectLive = async (page: Page) => {
    await page.locator('.live-indicator', { hasText: /^live$/ }).waitFor({ timeout: SHOWN_WITHIN_MS });
    await expectText(count(page, 'total'), '1');
    await flip();
    await expectText(count(page, 'down'), up ? '0' : '1');
  };

  it(`keeps ${TABS} tabs live through ${NAVIGATIONS} typed-URL page loads without a stall`, async () => {
    const context: BrowserContext = await rig.browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: rig.url,
    });
    // Every tab signed in with the same key, as a tab opened from the console is (sessionStorage is copied).
    await context.addInitScript(`sessionStorage.setItem('vigil.apiKey', ${JSON.stringify(rig.key)})`);
    const errors: string[] = [];
    const pages: Page[] = [];
    for (let i = 0; i < TABS; i += 1) {
      const page = await context.newPage();
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
        errors.push(`tab ${i}: console: ${msg.text()}`);
      });
      page.on('pageerror', (err) => errors.push(`tab ${i}: page error: ${err.message}`));
      page.on('response', (res) => {
        if (res.status() >= 500) errors.push(`tab ${i}: ${res.status()} from ${res.url()}`);
      });
      // A page load that cannot get a connection stalls here: the bound makes a stall a failure.
      await page.goto('/status', { timeout: SHOWN_WITHIN_MS });
      await page.getByRole('heading', { name: 'Status', level: 1 }).waitFor({ timeout: SHOWN_WITHIN_MS });
      pages.push(page);
    }
    for (const page of pages) await expectLive(page);

    const paths = ['/checks', '/status', '/catalog', '/status', '/entities/service/checkout'];
    for (let n = 0; n < NAVIGATIONS; n += 1) {
      const page = pages[n % TABS] as Page;
      // A typed URL: a full page load, not a client-side route change.
      await page.goto(paths[n % paths.length] ?? '/status', { timeout: SHOWN_WITHIN_MS });
      await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: SHOWN_WITHIN_MS });
      await page.goto('/status', { timeout: SHOWN_WITHIN_MS });
      await expectLive(page);
    }
    // Every other tab followed along too, over the one stream the browser holds.
    for (const page of pages) await expectText(count(page, 'down'), up ? '0' : '1');
    await expectBrowserStreams(1);
    expectNoConsoleErrors({ page: pages[0] as Page, errors, close: async () => {} });
    await context.close();
  });
  it('closes the stream once every tab has been hidden a minute, and resumes it with Last-Event-ID', async () => {
    const context = await rig.browser.newContext({ baseURL: rig.url });
    // Minutes pass in a moment: the fake clock runs at the real pace until the test jumps it ahead.
    await context.clock.install();
    await context.addInitScript(`sessionStorage.setItem('vigil.apiKey', ${JSON.stringify(rig.key)})`);
    // Headless pages are always visible: the test hides and shows them through this switch.
    await context.addInitScript(`(() => {
      const state = () => window.__visibility ?? 'visible';
      Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: state });
      Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => state() !== 'visible' });
    })()`);
    const resumedFrom: (string | undefined)[] = [];
    context.on('request', (req) => {
      if (new URL(req.url()).pathname === '/v1/status/stream')
        resumedFrom.push(req.headers()['last-event-id']);
    });
    const show = (page: Page, visibility: 'visible' | 'hidden') =>
      page.evaluate(
        `window.__visibility = '${visibility}'; document.dispatchEvent(new Event('visibilitychange'))`,
      );
    const [a, b] = [await context.newPage(), await context.newPage()];
    for (const page of [a, b]) {
      await page.goto('/status');
      await page.locator('.live-indicator', { hasText: /^live$/ }).waitFor();
    }
    await expectBrowserStreams(1);

    // One tab hidden a minute: the other one keeps (or takes over) the stream.
    await show(a, 'hidden');
    await context.clock.fastForward(HIDDEN_MS);
    await expectBrowserStreams(1);
    await flip();
    await expectText(count(b, 'down'), up ? '0' : '1');

    // Both hidden a minute: nobody follows the stream any more.
    await show(b, 'hidden');
    await context.clock.fastForward(HIDDEN_MS);
    await expectBrowserStreams(0);
    const before = resumedFrom.length;
    await flip();

    // Shown again: the stream reopens where the tabs left it, and the change made meanwhile shows.
    await show(b, 'visible');
    await b.locator('.live-indicator', { hasText: /^live$/ }).waitFor();
    await expectText(count(b, 'down'), up ? '0' : '1');
    expect(resumedFrom.length).toBeGreaterThan(before);
    expect(resumedFrom.at(-1)).toMatch(/^trn_/);
    await expectBrowserStreams(1);
    await context.close();
  });
});
