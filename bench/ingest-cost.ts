import { PRICES } from '../test/support/cost-prices.ts';
import { startDynamoDbLocal } from '../test/support/dynamodb-local.ts';
import {
  type IngestCostPhase,
  type IngestPhaseName,
  runIngestCost,
} from '../test/support/ingest-cost-run.ts';
import { table } from './markdown.ts';
import { round } from './stats.ts';

/**
 * `--only ingestcost`: outside alerts in the cloud runtime under the cost meter
 * (test/support/ingest-cost-run.ts, the run test/cost/ingest-cost.test.ts asserts on) over a
 * DynamoDB Local of its own, priced at list prices: Alertmanager requests through the api function,
 * then the stream function and the queues on the state changes they cause. Nothing is timed.
 */

export type IngestCostBenchFigures = Record<IngestPhaseName, IngestCostPhase> & {
  entities: number;
  perRequest: number;
  seconds: number;
};

export async function runIngestCostBench(options: {
  entities: number;
  alerts: number;
  perRequest: number;
  onProgress: (line: string) => void;
}): Promise<IngestCostBenchFigures> {
  const started = Date.now();
  const local = await startDynamoDbLocal();
  try {
    const phases = await runIngestCost({ endpoint: local.endpoint, ...options });
    return {
      ...phases,
      entities: options.entities,
      perRequest: options.perRequest,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await local.stop();
  }
}

const usd = (v: number) => `$${round(v, 2)}`;

/** The table (Markdown): dollars per million alerts by service, each phase and a fire with its resolve. */
export function formatIngestCost(f: IngestCostBenchFigures): string {
  const { fire, resolve } = f;
  const row = (label: string, pick: (p: IngestCostPhase) => number) => [
    label,
    usd(pick(fire)),
    usd(pick(resolve)),
    usd(pick(fire) + pick(resolve)),
  ];
  const d = (p: IngestCostPhase) => p.perAlert.dollarsPerMillion;
  return [
    `Cost of outside alerts in the cloud runtime (${fire.alerts} Alertmanager alerts on ${f.entities} entities, ${f.perRequest} a request, then their resolves; the api function's handler, the stream function and the queues over DynamoDB Local under the cost meter; us-east-1 list prices, API Gateway HTTP API $${PRICES.apiGatewayRequest * 1e6}/M):\n`,
    table(
      ['per alert', 'fire', 'resolve', 'fire + resolve'],
      [
        row('$ per million', (p) => d(p).atScale),
        row('  API Gateway', (p) => d(p).apiGateway),
        row('  Lambda', (p) => d(p).lambda),
        row('  DynamoDB', (p) => d(p).dynamodb),
        row('  SQS, EventBridge', (p) => d(p).sqs + d(p).eventBridge),
        [
          'write / read request units',
          ...[fire, resolve].map((p) => `${round(p.perAlert.wru, 2)} / ${round(p.perAlert.rru, 2)}`),
          `${round(fire.perAlert.wru + resolve.perAlert.wru, 2)} / ${round(fire.perAlert.rru + resolve.perAlert.rru, 2)}`,
        ],
      ],
    ),
  ].join('\n');
}
