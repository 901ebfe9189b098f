import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Every file gets a fresh module graph (vitest's default, kept on purpose): module state such as
    // the monotonic id factory (lib/platform/ids.ts) must not carry one file's fake clock into the
    // next. Sharing one graph per worker halved the import time but made the stream suites depend on
    // the order of files (CONTRIBUTING.md, "The test suite").
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
