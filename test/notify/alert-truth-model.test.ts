import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAlertTruth, type ModelRuntime, modelSettings } from './support/alert-truth-model.ts';
import { startModelLocalRuntime } from './support/model-local-runtime.ts';

/**
 * The alert-truth property (issue 51 item 7) on the local runtime: generated timelines played
 * through the flow harness's parts (SQLite table, change feed, durable notify queue, job runner,
 * real notifier, fake senders) on fake time, with restarts on the same database and redelivered
 * jobs; then every hold runs out and each channel's last word must be its entity's state, no
 * change told twice, each within its bound. One runtime serves every timeline (each its own
 * tenant, entities and channels). Seed: VIGIL_MODEL_SEED; timelines: VIGIL_MODEL_RUNS. 450 here
 * and 50 in test/cloud/alert-truth-model.test.ts make the 500 a run checks (about 0.15 s a timeline
 * here on a quiet machine, 3.5 s there).
 */

const { seed, numRuns, replaying } = modelSettings(450);

describe('alert truth on the local runtime (model-based)', () => {
  let rt: ModelRuntime;
  beforeAll(async () => {
    rt = await startModelLocalRuntime();
  });
  afterAll(async () => {
    await rt?.close();
  });

  it(`keeps every channel's last word the entity's state over ${numRuns} generated timelines (seed ${seed})`, async () => {
    const { runs, ms } = await assertAlertTruth(async () => rt, { seed, numRuns });
    console.info(`alert truth (local): ${runs} timelines in ${(ms / 1000).toFixed(1)} s, seed ${seed}`);
    // A replay (VIGIL_MODEL_PATH) runs its one timeline.
    expect(runs).toBe(replaying ? 1 : numRuns);
  }, 900_000);
});
