import { afterAll, beforeAll } from 'vitest';
import { type HarnessOptions, type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { jobLog, jobsInFlight, manualTime } from './scheduler-helpers.ts';

/**
 * A local runtime on manual time (its clock and scheduler timers move only when a test advances
 * them; probes reach real loopback targets), its job starts logged in `jobs`.
 */
export function startOnManualTime(
  time: ReturnType<typeof manualTime>,
  jobs: ReturnType<typeof jobLog>,
  options: HarnessOptions = {},
): Promise<LocalHarness> {
  return startLocalHarness({
    ...options,
    clock: time.clock,
    scheduler: { onJobStart: jobs.onJobStart, timers: time.timers },
  });
}

/**
 * The runtime of a describe block on manual time: started before its tests (time settles while its
 * jobs run), closed after them. `api()` reads it in a test or a hook.
 */
export function useManualTimeRuntime() {
  const jobs = jobLog();
  const time = manualTime();
  let harness: LocalHarness | undefined;
  const api = (): LocalHarness => {
    if (!harness) throw new Error('the runtime is read before its beforeAll started it');
    return harness;
  };
  beforeAll(async () => {
    harness = await startOnManualTime(time, jobs);
    time.settleWhile(() => jobsInFlight(api().local.scheduler));
  });
  afterAll(async () => {
    await harness?.close();
  });
  return { api, jobs, time };
}
