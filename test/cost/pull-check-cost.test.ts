import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CostMode, type CostRun, runPullCheckCost } from '../support/cost-run.ts';
import { startDynamoDbLocal } from '../support/dynamodb-local.ts';

/**
 * The cloud pull-check path under the cost meter, healthy then flapping, writing the per-result
 * figures to bench/results/cost.json. It asserts what holds whatever the layout (every check got
 * its results, every call priced, figures positive); the budget is not asserted here yet.
 */

const CHECKS = 200;
// An even number of flapping minutes: as many going down as coming back (and a second down, the
// reopening path), so the per-result figures are the steady mix; every healthy minute costs the same.
const CYCLES = 4;
const OUT = join(import.meta.dirname, '..', '..', 'bench', 'results', 'cost.json');
let runs: Record<CostMode, CostRun>;

// A DynamoDB Local of its own: the ~20,000 calls of the run do not queue behind the other test
// files' on the shared one (in the full suite that took it past 5 minutes; alone it takes ~1).
beforeAll(async () => {
  const local = await startDynamoDbLocal();
  try {
    runs = await runPullCheckCost({ endpoint: local.endpoint, checks: CHECKS, cycles: CYCLES });
  } finally {
    await local.stop();
  }
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(runs, null, 2)}\n`);
}, 600_000);

describe('the budget (issue 26)', () => {
  it('costs at most $0.50 per million healthy pull checks, counted by the meter', () => {
    expect(runs.healthy.perResult.dollarsPerMillion.total).toBeLessThanOrEqual(0.5);
  });
});

describe.each(['healthy', 'flapping'] as const)('the cost of %s pull checks in the cloud runtime', (mode) => {
  it(`records one result per check per minute, ${CHECKS} checks for ${CYCLES} minutes`, () => {
    expect(runs[mode].results).toBe(CHECKS * CYCLES);
    expect(runs[mode].resultsPerCheck).toEqual({ min: CYCLES, max: CYCLES });
  });

  it('prices every call it saw, with positive figures', () => {
    const { snapshot, perResult } = runs[mode];
    expect(snapshot.unpriced).toEqual({});
    expect((snapshot.calls.TransactWriteItems ?? 0) + (snapshot.calls.PutItem ?? 0)).toBeGreaterThan(0);
    expect(perResult.wru).toBeGreaterThan(0);
    expect(perResult.rru).toBeGreaterThan(0);
    expect(perResult.sqsRequests).toBeGreaterThan(0);
    expect(perResult.invocations.worker).toBeGreaterThan(0);
    expect(perResult.dollarsPerMillion.total).toBeGreaterThan(perResult.dollarsPerMillion.atScale);
  });
});

describe('a state change', () => {
  it('reaches the stream function for every flapping result, none for healthy ones, and costs more', () => {
    expect(runs.healthy.keptStreamRecords).toBe(0);
    expect(runs.flapping.keptStreamRecords).toBeGreaterThanOrEqual(runs.flapping.results);
    expect(runs.flapping.perResult.dollarsPerMillion.atScale).toBeGreaterThan(
      runs.healthy.perResult.dollarsPerMillion.atScale,
    );
  });
});

describe('a state change, in batches (issue 58)', () => {
  it('sends its notify and action jobs a stream batch at a time, and counts its alerts a notifier batch at a time', () => {
    const { snapshot, results } = runs.flapping;
    const sends = (queue: string) => snapshot.sqsRequests[`${queue}:SendMessageBatch`] ?? 0;
    // Per record, each state change was one send to each queue (notify 1.6: its also_failing jobs)
    // and one alert counter write; a batch shares them.
    expect(sends('notify')).toBeLessThan(results / 2);
    expect(sends('actions')).toBeLessThan(results / 2);
    expect(snapshot.byEntity.metric_counters?.wru ?? 0).toBeLessThan(results / 2);
  });
});
