import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PRICES } from '../support/cost-prices.ts';
import { type PingCostMode, type PingCostRun, runPingCost } from '../support/ping-cost-run.ts';

/**
 * The cost of a heartbeat in the cloud runtime under the cost meter (test/support/ping-cost-run.ts):
 * healthy push checks reported through their ping URL, and through the keyed results route for
 * comparison. It asserts what the meter counts and that the figures add up, per item type; no
 * dollar budget (docs/performance.md "Scale model" gives the figure against the ≤ $2 target).
 */

const CHECKS = 10;
const PINGS = 6;
let runs: Record<PingCostMode, PingCostRun>;

beforeAll(async () => {
  runs = await runPingCost({ endpoint: inject('dynamodbEndpoint'), checks: CHECKS, pings: PINGS });
}, 300_000);

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 9);

describe.each(['pingUrl', 'ping', 'keyed'] as const)('a healthy report (%s) in the cloud runtime', (mode) => {
  it(`is answered and stored once per report, ${CHECKS} checks x ${PINGS}, and reaches no stream function`, () => {
    const run = runs[mode];
    expect(run.requests).toBe(CHECKS * PINGS);
    expect(Object.keys(run.statuses).every((status) => Number(status) < 300)).toBe(true);
    expect(sum(Object.values(run.statuses))).toBe(run.requests);
    expect(run.stored).toBe(run.requests);
    expect(run.keptStreamRecords).toBe(0);
    expect(run.perPing.invocations).toEqual(mode === 'pingUrl' ? { ping: 1 } : { api: 1 });
  });

  it('prices every call it saw, and its parts add up to the total', () => {
    const { snapshot, perPing } = runs[mode];
    expect(snapshot.unpriced).toEqual({});
    // Through the ping function's URL no request passes API Gateway; through the API each does.
    expect(snapshot.apiRequests).toBe(mode === 'pingUrl' ? 0 : runs[mode].requests);
    const entities = Object.values(perPing.byEntity);
    close(sum(entities.map((e) => e.wru + e.gsiWru)), perPing.wru);
    close(sum(entities.map((e) => e.rru)), perPing.rru);
    close(sum(entities.map((e) => e.dollars)), perPing.dollarsPerMillion.dynamodb);
    close(
      perPing.wru * PRICES.writeRequestUnit * 1e6 + perPing.rru * PRICES.readRequestUnit * 1e6,
      perPing.dollarsPerMillion.dynamodb,
    );
    const d = perPing.dollarsPerMillion;
    close(d.dynamodb + d.sqs + d.lambda + d.eventBridge + d.apiGateway, d.atScale);
    // The ping function's URL is no API Gateway request; the API's routes are one each.
    close(d.apiGateway, mode === 'pingUrl' ? 0 : 1);
    // Nothing queued, nothing published: a healthy report changes no state.
    expect([d.sqs, d.eventBridge]).toEqual([0, 0]);
    expect(d.lambda).toBeGreaterThan(PRICES.lambdaInvocation * 1e6);
  });

  it('writes one result and the check state (the due index moved): a keyed result in one transaction, a ping apart', () => {
    const { result, check_state: state, run } = runs[mode].perPing.byEntity;
    expect(state?.gsiWru).toBeGreaterThan(0);
    if (mode === 'keyed') {
      // 2 units each: a transaction's.
      expect(result).toMatchObject({ wru: 2, gsiWru: 0 });
      expect(state?.wru).toBe(2);
      return;
    }
    // A plain success: the state's update, then the result's put, one unit each (only the minute a
    // 5-minute rollup bucket leaves the state is the state's update a transaction); the result is
    // its run of unknown duration too, so no run item is written.
    expect(result).toMatchObject({ wru: 1, gsiWru: 0 });
    expect(run).toBeUndefined();
    expect(state?.wru).toBeGreaterThanOrEqual(1);
    expect(state?.wru).toBeLessThan(1.5);
  });
});

describe('a ping URL report', () => {
  it('through the ping function URL writes what the same ping through the API does, with no API Gateway request', () => {
    const [url, api] = [runs.pingUrl.perPing, runs.ping.perPing];
    for (const type of ['result', 'run', 'push_token_lookup'])
      expect([type, url.byEntity[type]]).toEqual([type, api.byEntity[type]]);
    // The state's own units differ only by how many rollup buckets left it in each phase's minutes.
    const { gsiWru, rru } = api.byEntity.check_state ?? {};
    expect(url.byEntity.check_state).toMatchObject({ gsiWru, rru });
    expect([url.dollarsPerMillion.apiGateway, api.dollarsPerMillion.apiGateway]).toEqual([0, 1]);
  });

  it('of a plain success (no body, run id or run) writes no ping log item and takes no number: its result is its one copy', () => {
    expect(runs.ping.perPing.byEntity.ping).toBeUndefined();
    expect(runs.pingUrl.perPing.byEntity.ping).toBeUndefined();
    expect(runs.ping.perPing.byEntity.ping_seq).toBeUndefined();
    expect(runs.ping.perPing.byEntity.ping_slot).toBeUndefined();
    expect(runs.keyed.perPing.byEntity.ping).toBeUndefined();
  });
});

describe('the reads of a ping', () => {
  it("read its tenant once per instance and AUTH_CACHE_MS, not once a ping (here once a minute for the minute's pings)", () => {
    for (const mode of ['ping', 'pingUrl'] as const) {
      // The result recorder's own cache reads it once a minute too: two reads a minute of CHECKS pings.
      expect([mode, runs[mode].perPing.byEntity.tenant?.rru]).toEqual([mode, 2 / CHECKS]);
    }
  });
});

describe('the rate limits of a report', () => {
  it('cost the keyed route two window writes (its key, its tenant)', () => {
    expect(runs.keyed.perPing.byEntity.rate_window).toMatchObject({ wru: 2, gsiWru: 0 });
  });

  it("cost a ping no write: its check's bucket is in the instance's memory, and pings spend no tenant ceiling", () => {
    expect(runs.ping.perPing.byEntity.rate_window).toBeUndefined();
    expect(runs.pingUrl.perPing.byEntity.rate_window).toBeUndefined();
  });
});
