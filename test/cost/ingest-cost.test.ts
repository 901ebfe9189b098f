import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PRICES } from '../support/cost-prices.ts';
import { type IngestCostPhase, type IngestPhaseName, runIngestCost } from '../support/ingest-cost-run.ts';

/**
 * Outside alerts in the cloud runtime under the cost meter (test/support/ingest-cost-run.ts):
 * Alertmanager requests through the api function, then the change feed through the stream function
 * and the queues. It asserts what the meter counts and that the figures add up; no dollar budget
 * (docs/performance.md gives the figure against the ≤ $2 per million alerts target).
 */

const ENTITIES = 20;
const ALERTS = 200;
const PER_REQUEST = 50;
let phases: Record<IngestPhaseName, IngestCostPhase>;

beforeAll(async () => {
  phases = await runIngestCost({
    endpoint: inject('dynamodbEndpoint'),
    entities: ENTITIES,
    alerts: ALERTS,
    perRequest: PER_REQUEST,
  });
}, 300_000);

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 9);

describe.each(['fire', 'resolve'] as const)('outside alerts in the cloud runtime (%s)', (name) => {
  it(`takes ${ALERTS} alerts in ${ALERTS / PER_REQUEST} requests, each answered 202, and moves every entity`, () => {
    const phase = phases[name];
    expect(phase.statuses).toEqual({ 202: ALERTS / PER_REQUEST });
    expect(phase.inState).toBe(ENTITIES);
    expect(phase.snapshot.apiRequests).toBe(ALERTS / PER_REQUEST);
    // The entities' state changes reach the stream function: the pipeline runs on them.
    expect(phase.perAlert.invocations.stream ?? 0).toBeGreaterThan(0);
  });

  it('prices every call it saw, and its parts add up to the total', () => {
    const { snapshot, perAlert } = phases[name];
    expect(snapshot.unpriced).toEqual({});
    const entities = Object.values(perAlert.byEntity);
    close(sum(entities.map((e) => e.wru + e.gsiWru)), perAlert.wru);
    close(sum(entities.map((e) => e.rru)), perAlert.rru);
    close(
      perAlert.wru * PRICES.writeRequestUnit * 1e6 + perAlert.rru * PRICES.readRequestUnit * 1e6,
      perAlert.dollarsPerMillion.dynamodb,
    );
    const d = perAlert.dollarsPerMillion;
    close(d.dynamodb + d.sqs + d.lambda + d.eventBridge + d.apiGateway, d.atScale);
    // One API Gateway request carries PER_REQUEST alerts.
    close(d.apiGateway, (PRICES.apiGatewayRequest * 1e6) / PER_REQUEST);
    // Each alert is stored: its own item written at least once.
    expect(perAlert.byEntity.outside_alert?.wru ?? 0).toBeGreaterThanOrEqual(1);
  });
});
