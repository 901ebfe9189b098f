import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

/**
 * The browser tier's one Chromium (CONTRIBUTING.md "Tiers"): started once for the tier instead of
 * once per file; each file connects (test/support/chromium.ts) and works in contexts of its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
