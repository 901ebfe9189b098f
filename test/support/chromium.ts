import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The browser tier's one Chromium (test/support/browser-setup.ts): its WebSocket endpoint. */
    chromiumEndpoint: string;
  }
}

/**
 * The console's tests run Debian's headless shell (package `chromium-headless-shell`), the build
 * Playwright itself runs for headless work: the same engine without the full browser's UI, which
 * `--headless` in the full build still runs. Three console files took 93-97 s of CPU with it against
 * 143-148 s with /usr/bin/chromium, paired runs, 2026-11-28 (CONTRIBUTING.md "Tiers"). Browser
 * checks, the product's, keep the full build (VIGIL_CHROMIUM_PATH).
 */
export const CHROMIUM = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-features=Translate,OptimizationHints,MediaRouter',
];

/**
 * A browser for one test file: a connection to the browser tier's Chromium when the run started
 * one (its contexts are this file's; `close()` drops them and disconnects), else a Chromium of its own.
 */
export async function openBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
