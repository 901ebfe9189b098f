import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocationCostRun, runLocationCost } from '../support/location-cost-run.ts';

/**
 * The cost of a located slot in the cloud runtime under the cost meter
 * (test/support/location-cost-run.ts): checks probed from 3 AWS regions with quorum 2, every region
 * reporting success. It asserts what the meter counts per slot, item by item; no dollar budget
 * (docs/performance.md "Probe locations" gives the figures; `npm run bench -- --only locationcost`).
 */

const CHECKS = 6;
const SLOTS = 2;
let run: LocationCostRun;

beforeAll(async () => {
  run = await runLocationCost({
    endpoint: inject('dynamodbEndpoint'),
    checks: CHECKS,
    slots: SLOTS,
    regions: 3,
    quorum: 2,
    leaseBatch: 4,
    postBatch: 3,
  });
}, 300_000);

describe('a located slot (3 regions, quorum 2) in the cloud runtime', () => {
  it('is decided once per slot, with every region reported', () => {
    expect(run.located).toBe(CHECKS * SLOTS);
    expect(run.decided).toBe(run.located);
    expect(run.snapshot.unpriced).toEqual({});
  });

  it('puts a location job and a location result per region, each job deleted with its result', () => {
    const { byEntity } = run.snapshot;
    // A job's put (in a transaction with the no-result condition) and its delete with the result.
    expect(byEntity.location_job?.wru).toBeGreaterThan(0);
    expect(byEntity.location_result?.wru).toBeGreaterThan(0);
    // Per slot: 3 results, each put in a transaction (2 WRU each at 1 KB or less).
    expect((byEntity.location_result?.wru ?? 0) / run.located).toBeGreaterThanOrEqual(3 * 2);
    // One decided result per slot.
    expect((byEntity.result?.wru ?? 0) / run.located).toBeGreaterThan(0);
  });

  it('counts the API requests of the batches: ceil(jobs/lease) + 1 empty lease and ceil(jobs/post) per region and slot', () => {
    const perRegionAndSlot = Math.ceil(CHECKS / 4) + 1 + Math.ceil(CHECKS / 3);
    expect(run.snapshot.apiRequests).toBe(3 * SLOTS * perRegionAndSlot);
    expect(run.snapshot.invocations.api).toBe(run.snapshot.apiRequests);
    // The probe job and the decide job of each slot.
    expect(run.snapshot.invocations.worker).toBe(2 * run.located);
  });
});
