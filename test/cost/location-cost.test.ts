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
    // Per region: the job's put (conditional), its lease (a conditional update) and its delete,
    // each a single write of an item under 1 KB (1 WRU), none in a transaction.
    expect((byEntity.location_job?.wru ?? 0) / run.located).toBe(3 * 3);
    // The fan-out checks no absent location result (a transaction's condition check, 2 WRU).
    expect(byEntity['(missing)']).toBeUndefined();
    // Each region's result is put in a transaction with its uptime count (2 WRU an item of 1 KB or less).
    expect((byEntity.location_result?.wru ?? 0) / run.located).toBe(3 * 2);
    expect((byEntity.location_uptime?.wru ?? 0) / run.located).toBe(3 * 2);
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

  it('answers an idle lease (nothing due) with one api invocation and no write but its rate limit', () => {
    const { idleLease } = run;
    expect(idleLease.invocations.api).toBe(1);
    expect(Object.keys(idleLease.byEntity).filter((t) => idleLease.byEntity[t]?.wru)).toEqual(
      idleLease.wru > 0 ? ['rate_window'] : [],
    );
    expect(idleLease.rru).toBeGreaterThan(0);
  });
});
