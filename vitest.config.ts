import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits up to 1 s by default: too short for a page or a queue on a loaded CI machine.
    // A poll ends as soon as its assertion holds, so the longer bound costs nothing when all is well.
    expect: { poll: { timeout: 10_000 } },
  },
});
