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

describe.each(['ping', 'keyed'] as const)('a healthy report (%s) in the cloud runtime', (mode) => {
  it(`is answered and stored once per report, ${CHECKS} checks x ${PINGS}, and reaches no stream function`, () => {
    const run = runs[mode];
    expect(run.requests).toBe(CHECKS * PINGS);
    expect(Object.keys(run.statuses).every((status) => Number(status) < 300)).toBe(true);
    expect(sum(Object.values(run.statuses))).toBe(run.requests);
    expect(run.stored).toBe(run.requests);
    expect(run.keptStreamRecords).toBe(0);
    expect(run.perPing.invocations).toEqual({ api: 1 });
  });

  it('prices every call it saw, and its parts add up to the total', () => {
    const { snapshot, perPing } = runs[mode];
    expect(snapshot.unpriced).toEqual({});
    expect(snapshot.apiRequests).toBe(runs[mode].requests);
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
    close(d.apiGateway, 1);
    // Nothing queued, nothing published: a healthy report changes no state.
    expect([d.sqs, d.eventBridge]).toEqual([0, 0]);
    expect(d.lambda).toBeGreaterThan(PRICES.lambdaInvocation * 1e6);
  });

  it('writes one result and the check state in one transaction (2 units each, the due index moved)', () => {
    const { result, check_state: state } = runs[mode].perPing.byEntity;
    expect(result).toMatchObject({ wru: 2, gsiWru: 0 });
    expect(state?.wru).toBe(2);
    expect(state?.gsiWru).toBeGreaterThan(0);
  });
});

describe('a ping URL report', () => {
  it('of a plain success (no body, run id or run) writes no ping log item and takes no number: its result is its one copy', () => {
    expect(runs.ping.perPing.byEntity.ping).toBeUndefined();
    expect(runs.ping.perPing.byEntity.ping_seq).toBeUndefined();
    expect(runs.ping.perPing.byEntity.ping_slot).toBeUndefined();
    expect(runs.keyed.perPing.byEntity.ping).toBeUndefined();
  });
});

describe('the rate limits of a report', () => {
  it('cost the keyed route two window writes (its key, its tenant)', () => {
    expect(runs.keyed.perPing.byEntity.rate_window).toMatchObject({ wru: 2, gsiWru: 0 });
  });

  it("cost a ping a fraction of one: the token's own bucket is in the instance's memory, its tenant's leased from the table", () => {
    const window = runs.ping.perPing.byEntity.rate_window;
    expect(window?.gsiWru).toBe(0);
    // The checks ping at the same second of each minute: leases of 1, 2, 4, … a window.
    expect(window?.wru).toBeGreaterThan(0);
    expect(window?.wru).toBeLessThanOrEqual(0.5);
  });
});
