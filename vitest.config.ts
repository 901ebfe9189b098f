import { defineConfig } from 'vitest/config';
import { type Tier, testFilesByTier } from './test/tiers.ts';

const byTier = testFilesByTier();

/** Each tier a vitest project of its own (`npm run test:<tier>`); `npm test` runs them all (CONTRIBUTING.md "Tiers"). */
const tier = (
  name: Tier,
  workers: number,
  extra: { globalSetup?: string[]; setupFiles?: string[]; isolate?: boolean } = {},
) => ({
  extends: true as const,
  test: {
    name,
    include: byTier[name],
    maxWorkers: workers,
    // vitest runs projects with different worker counts one after another, in this order.
    sequence: { groupOrder: TIER_ORDER.indexOf(name) },
    ...extra,
  },
});

/** The order `npm test` runs the tiers in: the fastest feedback first. */
const TIER_ORDER: Tier[] = ['unit', 'api', 'cloud', 'browser', 'system'];

/** One DynamoDB Local for the run, shared by the tiers that make tables (test/support/global-setup.ts). */
const dynamodb = { globalSetup: ['test/support/global-setup.ts'] };

export default defineConfig({
  test: {
    projects: [
      // Pure logic: one module graph per worker (imports paid once), module state reset per file.
      tier('unit', 1, { isolate: false, setupFiles: ['test/support/unit-setup.ts'] }),
      tier('api', 2, dynamodb),
      tier('cloud', 2, dynamodb),
      // One Chromium for the tier, a browser connection (and contexts) per file.
      tier('browser', 2, { globalSetup: ['test/support/browser-setup.ts'] }),
      tier('system', 3, dynamodb),
    ],
    // `npm run coverage`: v8 coverage of lib/, tabled by folder and engine adapter (bin/coverage-tables.ts).
    coverage: { provider: 'v8', include: ['lib/**/*.ts'], reporter: ['json-summary', 'text-summary'] },
    pool: 'forks',
    // Every file of the api, cloud, browser and system tiers gets a fresh module graph (vitest's
    // default, kept on purpose): module state such as the monotonic id factory (lib/platform/ids.ts)
    // must not carry one file's fake clock into the next, and sharing one graph made the stream
    // suites depend on the order of files. The unit tier shares it, resetting that state per file
    // (CONTRIBUTING.md, "Tiers").
    isolate: true,
    // A bound for a test that hangs, not a speed limit: the DynamoDB Local suites (100-item
    // transactions, 25 writers racing for one item) take seconds alone and several times that on a
    // busy machine, and CI must stay green there (no test fails for time alone).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits up to 1 s by default: too short for a page or a queue on a loaded CI machine.
    // A poll ends as soon as its assertion holds, so the longer bound costs nothing when all is well.
    expect: { poll: { timeout: 10_000 } },
  },
});
