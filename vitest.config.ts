import { defineConfig } from 'vitest/config';

/**
 * Files that replace modules with vi.mock: they get a fresh module graph of their own. Every other
 * file shares one per worker (isolate: false), so the app's modules (the AWS SDK, zod schemas, the
 * route table) are imported once instead of once per file: that halves the suite's time on CI's
 * two cores (docs/performance.md, "The test suite"). A file must therefore leave no global state
 * behind: restore fake timers, close its servers, never assign process.env.
 */
const ISOLATED = ['test/platform/http1-client.test.ts'];

const shared = {
  pool: 'forks',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // expect.poll waits up to 1 s by default: too short for a page or a queue on a loaded CI machine.
  // A poll ends as soon as its assertion holds, so the longer bound costs nothing when all is well.
  expect: { poll: { timeout: 10_000 } },
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      { test: { ...shared, name: 'isolated', include: ISOLATED } },
    ],
  },
});
