import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/support/long-first-sequencer.ts';
import { type Tier, testFilesByTier } from './test/tiers.ts';

const byTier = testFilesByTier();

/** Each tier a vitest project of its own (`npm run test:<tier>`); `npm test` runs them all (CONTRIBUTING.md "Tiers"). */
const tier = (
  name: Tier,
  extra: { globalSetup?: string[]; setupFiles?: string[]; isolate?: boolean; execArgv?: string[] } = {},
) => ({
  extends: true as const,
  test: {
    name,
    include: byTier[name],
    // Tiers of one group share its workers: the sequencer queues them tier by tier (unit first),
    // so a worker that runs out of one tier's files goes on to the next instead of waiting for
    // the other to end. vitest runs the groups one after another.
    maxWorkers: groupOf(name).workers,
    sequence: { groupOrder: GROUPS.indexOf(groupOf(name)) },
    ...extra,
  },
});

/**
 * The groups `npm test` runs, one after another: the tiers on 2 workers (the machine's cores: their
 * work is CPU), then the system tier on 3 (real processes and real waits beside one another).
 * vitest gives a group one worker count.
 */
const GROUPS: { tiers: Tier[]; workers: number }[] = [
  { tiers: ['unit', 'api', 'cloud', 'browser'], workers: 2 },
  { tiers: ['system'], workers: 3 },
];

function groupOf(name: Tier): (typeof GROUPS)[number] {
  const group = GROUPS.find((g) => g.tiers.includes(name));
  if (!group) throw new Error(`tier ${name} is in no group of vitest.config.ts`);
  return group;
}

/** One DynamoDB Local for the run, shared by the tiers that make tables (test/support/global-setup.ts). */
const dynamodb = { globalSetup: ['test/support/global-setup.ts'] };

/**
 * One module graph per worker: a file's imports are paid once per worker, not once per file (the
 * api tier's 40 first files: 150 s of imports and 136 s of wall time with a fresh graph each,
 * 27 s and 65 s shared). What a file leaves in module state is reset before the next
 * (test/support/shared-graph-setup.ts).
 */
const sharedGraph = {
  isolate: false,
  setupFiles: ['test/support/shared-graph-setup.ts'],
  // A shared-graph worker lives for many files, and once died of V8's fault in freeing WebAssembly
  // code (`jit_page_->allocations_.erase(addr) == 1`, nodejs/node#64500; CONTRIBUTING.md "Tiers"):
  // its three modules are made once each, so keeping their replaced code costs little.
  execArgv: ['--no-wasm-code-gc'],
};

export default defineConfig({
  test: {
    projects: [
      tier('unit', sharedGraph),
      tier('api', { ...dynamodb, ...sharedGraph }),
      tier('cloud', { ...dynamodb, ...sharedGraph }),
      // One Chromium for the tier, a browser connection (and contexts) per file.
      tier('browser', { globalSetup: ['test/support/browser-setup.ts'] }),
      tier('system', dynamodb),
    ],
    // `npm run coverage`: v8 coverage of lib/, tabled by folder and engine adapter (bin/coverage-tables.ts).
    coverage: { provider: 'v8', include: ['lib/**/*.ts'], reporter: ['json-summary', 'text-summary'] },
    // The default output, then each tier's own time beside its budget (test/support/tier-report.ts).
    reporters: ['default', './test/support/tier-report.ts'],
    pool: 'forks',
    // Each tier's longest files start first, so none of them holds its tier alone at the end.
    sequence: { sequencer: LongFirstSequencer },
    // The browser and system tiers give every file a fresh module graph (vitest's default): their
    // time is Chromium's and the processes': the browser files' own times summed to 1,478 s in one
    // shared graph against 1,436 s fresh (CONTRIBUTING.md "Tiers"). The other tiers share it (sharedGraph).
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
