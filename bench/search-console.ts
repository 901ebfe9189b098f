import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
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

/** Signs in, then `rounds` times opens the search with "/" and types a new text: ms to the first result. */
export async function timeFirstResults(url: string, key: string, texts: string[]): Promise<Percentiles> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await (await browser.newContext({ baseURL: url })).newPage();
    await page.goto('/');
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
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
