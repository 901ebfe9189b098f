import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import { repoRoot } from './child.ts';
import { type Percentiles, percentiles } from './stats.ts';

/**
 * The console's side of the search scenario: the console built from this checkout into a temporary
 * directory (served by the runtime under test), and the time from the last typed character to the
 * first result shown in Debian's Chromium (through playwright-core), the typing pause included.
 */

const CHROMIUM = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium';

/** Builds the console into a fresh directory; the caller removes it. */
export async function buildConsole(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'vigil-bench-console-'));
  await build({
    configFile: join(repoRoot, 'web', 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

export const removeConsole = (dir: string) => rmSync(dir, { recursive: true, force: true });

/** Whether a Chromium is there to drive (else the console figure is left out). */
export const chromiumPresent = () => existsSync(CHROMIUM);

const launch = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });

/** A page of the console at `url`, signed in with `key`. */
async function signedIn(browser: Browser, url: string, key: string): Promise<Page> {
  const page = await (
    await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 900 } })
  ).newPage();
  await page.goto('/');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return page;
}

/**
 * Signs in, then `count` + 1 times loads `from` and clicks the main navigation's `link`: ms from the
 * click until `firstRow` of the page is shown (the first round warms up and is not counted).
 */
export async function timeFirstRows(
  url: string,
  key: string,
  nav: { from: string; link: string; firstRow: (page: Page) => Locator },
  count: number,
): Promise<Percentiles> {
  const browser = await launch();
  try {
    const page = await signedIn(browser, url, key);
    const samples: number[] = [];
    for (let i = 0; i < count + 1; i += 1) {
      await page.goto(nav.from);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      const started = performance.now();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: nav.link, exact: true })
        .click();
      await nav.firstRow(page).waitFor({ timeout: 30_000 });
      if (i > 0) samples.push(performance.now() - started);
    }
    return percentiles(samples);
  } finally {
    await browser.close();
  }
}

/** Signs in, then `rounds` times opens the search with "/" and types a new text: ms to the first result. */
export async function timeFirstResults(url: string, key: string, texts: string[]): Promise<Percentiles> {
  const browser = await launch();
  try {
    const page = await signedIn(browser, url, key);
    const dialog = page.getByRole('dialog', { name: 'Search' });
    const samples: number[] = [];
    for (const text of texts) {
      await page.keyboard.press('/');
      const box = dialog.getByRole('combobox');
      await box.waitFor();
      const started = performance.now();
      await box.fill(text);
      await dialog.getByRole('option').first().waitFor({ timeout: 30_000 });
      samples.push(performance.now() - started);
      await box.press('Escape');
      await box.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    return percentiles(samples);
  } finally {
    await browser.close();
  }
}
