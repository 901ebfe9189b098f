import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { bareHost } from '../../egress/egress-guard.ts';
import type { BrowserRunAnswer, RunRequest } from '../browser-run-wire.ts';
import { launchChromium } from './chromium-launch.ts';
import { type Refusal, startGuardedProxy } from './guarded-proxy.ts';
import { runPageStep } from './page-steps.ts';
import { keptTrace } from './trace-masking.ts';

/**
 * A browser check's run, inside the runner's child process (./browser-child.ts): the guarded
 * proxy, then Chromium headless sending everything through it (loopback included), then the steps
 * in order until the first failure (the rest `skipped`), then the last page's Web Vitals, and the
 * Playwright trace when the check asks for it (masked here: ./trace-masking.ts).
 */

/** A step's budget when it names none. */
const STEP_TIMEOUT_MS = 10_000;
/** A screenshot larger than this is left out (a result keeps a bounded size). */
const MAX_SCREENSHOT_BYTES = 512 * 1024;
/** The pages a run may have open at once: a popup beyond them is closed as it opens. */
const MAX_PAGES = 8;

/** Records LCP and CLS as the page reports them (run in each page before its scripts). */
const VITALS_SCRIPT = `(() => {
  const v = { cls: 0 };
  Object.defineProperty(window, '__vigilVitals', { value: v });
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) v.lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true }); } catch {}
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) v.cls += e.value; })
    .observe({ type: 'layout-shift', buffered: true }); } catch {}
})()`;
const READ_VITALS = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const v = window.__vigilVitals || {};
  return { lcp: v.lcp, cls: v.cls, ttfb: nav ? nav.responseStart : undefined };
})()`;

/** A URL's host as the proxy names it: lower case, an IPv6 address without its brackets. */
function hostOf(url: string): string {
  try {
    return bareHost(new URL(url).hostname).toLowerCase();
  } catch {
    return '';
  }
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

/** The longest a read of the page (its vitals, a round trip) may take: a page spinning its thread never answers. */
const READ_MS = 3000;

/** `expression` evaluated in the page, or undefined when the page fails or does not answer within READ_MS. */
async function readPage(page: Page, expression: string): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), READ_MS);
  });
  try {
    return await Promise.race([page.evaluate(expression).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function readVitals(page: Page): Promise<BrowserRunAnswer['vitals']> {
  try {
    const raw = ((await readPage(page, READ_VITALS)) ?? {}) as {
      lcp?: unknown;
      cls?: unknown;
      ttfb?: unknown;
    };
    const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
    const lcp = num(raw.lcp);
    const cls = num(raw.cls);
    const ttfb = num(raw.ttfb);
    return {
      ...(lcp !== undefined ? { lcp_ms: Math.round(lcp) } : {}),
      ...(cls !== undefined ? { cls: Math.round(cls * 1000) / 1000 } : {}),
      ...(ttfb !== undefined && ttfb > 0 ? { ttfb_ms: Math.round(ttfb) } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * What a screenshot masks: each element a step filled (typed, selected) a secret into, and each
 * element whose text shows a secret as written. Nothing else: a secret drawn elsewhere (a canvas,
 * an image, text made from it) stays in the pixels (docs/scripted-checks.md says so).
 */
function secretMasks(page: Page, filled: readonly string[], secrets: readonly string[]): Locator[] {
  return [
    ...filled.map((selector) => page.locator(selector)),
    ...secrets.filter((s) => s.trim() !== '').map((secret) => page.getByText(secret)),
  ];
}

/** Whether a step puts a secret into an element (its value holds one). */
const fillsSecret = (step: RunRequest['steps'][number], secrets: readonly string[]) =>
  step.selector !== undefined &&
  step.value !== undefined &&
  secrets.some((s) => s !== '' && step.value?.includes(s));

async function screenshot(page: Page, mask: Locator[]): Promise<string | undefined> {
  try {
    const jpeg = await page.screenshot({ type: 'jpeg', quality: 60, timeout: 5000, mask });
    return jpeg.length <= MAX_SCREENSHOT_BYTES ? jpeg.toString('base64') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The trace recorded since the context opened, when the run keeps one (`always`, or `on_failure`
 * and a step failed): written to a temporary file, masked and bounded; otherwise discarded.
 */
async function stopTrace(
  context: BrowserContext,
  request: RunRequest,
  failed: boolean,
): Promise<Pick<BrowserRunAnswer, 'trace' | 'trace_left_out'>> {
  const keep = request.trace === 'always' || (request.trace === 'on_failure' && failed);
  if (!keep) {
    await context.tracing.stop().catch(() => undefined);
    return {};
  }
  const dir = await mkdtemp(join(tmpdir(), 'vigil-trace-'));
  try {
    const path = join(dir, 'trace.zip');
    await context.tracing.stop({ path });
    return keptTrace(await readFile(path), request.secrets ?? []);
  } catch (err) {
    return { trace_left_out: `the trace could not be kept: ${firstLine(err)}` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs the request's steps; never throws (a failure is a failed step). */
export async function runBrowserSession(request: RunRequest): Promise<BrowserRunAnswer> {
  const proxy = await startGuardedProxy({ allowPrivate: request.allowPrivate });
  const steps: BrowserRunAnswer['steps'] = [];
  const screenshots: BrowserRunAnswer['screenshots'] = [];
  let vitals: BrowserRunAnswer['vitals'] = {};
  let trace: Pick<BrowserRunAnswer, 'trace' | 'trace_left_out'> = {};
  const { browser, sandboxRefused } = await launchChromium(request, proxy.url).catch(async (err: unknown) => {
    await proxy.close();
    throw err;
  });
  try {
    const context = await browser.newContext({
      viewport: request.viewport ?? { width: 1280, height: 720 },
      serviceWorkers: 'block',
      // A download is refused (cancelled), never written to the host's disk.
      acceptDownloads: false,
    });
    // A page that opens window after window gets MAX_PAGES; the rest close as they open.
    context.on('page', (opened) => {
      if (context.pages().length > MAX_PAGES) void opened.close().catch(() => undefined);
    });
    const secrets = request.secrets ?? [];
    const filled: string[] = [];
    const tracing = request.trace !== undefined && request.trace !== 'off';
    // The trace's frames are pixels, which its masking cannot reach: a check with secrets records none.
    if (tracing) await context.tracing.start({ screenshots: secrets.length === 0, snapshots: true });
    await context.addInitScript(VITALS_SCRIPT);
    const page = await context.newPage();
    // The hosts the page asked for (documents, subresources, redirects, websockets): a refusal of
    // one of them is the page's; Chromium's own traffic (updates) is refused without failing a step.
    const asked = new Set<string>();
    page.on('request', (r) => asked.add(hostOf(r.url())));
    page.on('websocket', (ws) => asked.add(hostOf(ws.url())));
    // The page's events and the proxy's refusals arrive apart: a refusal waits until its host is
    // known to be the page's (a round trip to the page first, so the events before it are in).
    const pending: Refusal[] = [];
    const refusal = async () => {
      await readPage(page, '0');
      pending.push(...proxy.takeRefusals());
      const index = pending.findIndex((r) => asked.has(bareHost(r.host).toLowerCase()));
      return index < 0 ? undefined : pending.splice(index, 1)[0];
    };
    const deadline = performance.now() + request.timeoutMs;
    let failed = false;
    for (const [index, step] of request.steps.entries()) {
      if (failed) {
        steps.push({ action: step.action, outcome: 'skipped', ms: 0 });
        continue;
      }
      const started = performance.now();
      const left = Math.floor(deadline - started);
      let error: string | undefined;
      if (left <= 0) error = `the check's timeout_ms of ${request.timeoutMs} ms ran out before this step`;
      else {
        const own = step.timeout_ms ?? STEP_TIMEOUT_MS;
        try {
          await runPageStep(page, step, Math.min(own, left));
        } catch (err) {
          error =
            left <= own && performance.now() >= deadline - 5
              ? `the check's timeout_ms of ${request.timeoutMs} ms ran out during this step`
              : firstLine(err);
        }
      }
      // A request the guard refused fails the step that made it, whatever the page made of the 403.
      const refused = await refusal();
      if (refused) error = `the SSRF guard refused ${refused.host}: ${refused.reason}`;
      const ms = Math.max(0, Math.round(performance.now() - started));
      if (fillsSecret(step, secrets) && step.selector !== undefined) filled.push(step.selector);
      if (error !== undefined || step.action === 'screenshot') {
        const shot = await screenshot(page, secretMasks(page, filled, secrets));
        if (shot) screenshots.push({ step: index, jpeg: shot });
      }
      steps.push({
        action: step.action,
        outcome: error === undefined ? 'passed' : 'failed',
        ms,
        ...(error ? { error } : {}),
      });
      failed = error !== undefined;
    }
    vitals = await readVitals(page);
    // A request the page made after its last step (a late fetch) fails that step too.
    const late = await refusal();
    const last = steps.findLast((s) => s.outcome !== 'skipped');
    if (late && last && last.outcome === 'passed') {
      last.outcome = 'failed';
      last.error = `the SSRF guard refused ${late.host}: ${late.reason}`;
    }
    if (tracing)
      trace = await stopTrace(
        context,
        request,
        steps.some((s) => s.outcome === 'failed'),
      );
  } finally {
    await browser.close().catch(() => undefined);
    await proxy.close();
  }
  return {
    steps,
    vitals,
    screenshots,
    ...trace,
    ...(sandboxRefused ? { sandbox_refused: sandboxRefused } : {}),
  };
}
