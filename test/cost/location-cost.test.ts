import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocationCostRun, runLocationCost } from '../support/location-cost-run.ts';

/**
 * The cost of a located slot in the cloud runtime under the cost meter
 * (test/support/location-cost-run.ts): checks probed from 3 AWS regions with quorum 2, every region
 * reporting success, through the generator, the worker and the api function's agent routes. It
 * asserts what the meter counts per slot; no dollar budget (docs/performance.md "Scale model" gives
 * the figures; `npm run bench -- --only locationcost`).
 */

const CHECKS = 6;
const SLOTS = 2;
const LEASE_BATCH = 4;
const POST_BATCH = 3;
let run: LocationCostRun;

beforeAll(async () => {
  run = await runLocationCost({
    endpoint: inject('dynamodbEndpoint'),
    checks: CHECKS,
    slots: SLOTS,
    regions: 3,
    quorum: 2,
    leaseBatch: LEASE_BATCH,
    postBatch: POST_BATCH,
  });
}, 300_000);

describe('a located slot (3 regions, quorum 2) in the cloud runtime', () => {
  it('is decided once per slot, every result recorded', () => {
    expect(run.located).toBe(CHECKS * SLOTS);
    expect(run.decided).toBe(run.located);
    expect(Object.keys(run.statuses)).toEqual(['200']);
    expect(run.snapshot.unpriced).toEqual({});
  });

  it('writes a location job and a location result per region and slot, and the slot one result', () => {
    const { byEntity } = run.snapshot;
    expect(byEntity.location_job?.wru).toBeGreaterThan(0);
    // Each region's result is put in a transaction (2 WRU an item of 1 KB or less).
    expect((byEntity.location_result?.wru ?? 0) / run.located).toBeGreaterThanOrEqual(3 * 2);
    expect((byEntity.result?.wru ?? 0) / run.located).toBeGreaterThan(0);
    // Nothing changes state in the steady state: no transition, no alert.
    expect(byEntity.transition).toBeUndefined();
  });

  it('counts the API requests of the batches, and two worker jobs per slot (probe, decide)', () => {
    // Per region and minute: ceil(jobs / lease) leases with jobs, one empty, ceil(jobs / post) posts.
    const perRegionAndMinute = Math.ceil(CHECKS / LEASE_BATCH) + 1 + Math.ceil(CHECKS / POST_BATCH);
    expect(run.snapshot.apiRequests).toBe(3 * SLOTS * perRegionAndMinute);
    expect(run.snapshot.invocations.api).toBe(run.snapshot.apiRequests);
    expect(run.snapshot.invocations.worker).toBe(2 * run.located);
  });
});
