import { REGION_RUN } from '../lib/agent/region-function.ts';
import { PRICES } from '../test/support/cost-prices.ts';
import { startDynamoDbLocal } from '../test/support/dynamodb-local.ts';
import { regionFixedMonthly } from '../test/support/location-cost-fixed.ts';
import { type LocationCostRun, runLocationCost } from '../test/support/location-cost-run.ts';
import { table } from './markdown.ts';
import { round } from './stats.ts';

/**
 * `--only locationcost`: a located slot's cost in the cloud runtime under the cost meter
 * (test/support/location-cost-run.ts, the run test/cost/location-cost.test.ts asserts on) over a
 * DynamoDB Local of its own, priced at list prices, per located slot (one check's minute decided
 * from every region) and per region probe; then each region's fixed monthly cost. Nothing here is
 * timed, so it runs in this process.
 */

export type LocationCostBenchFigures = LocationCostRun & { seconds: number };

export async function runLocationCostBench(options: {
  checks: number;
  slots: number;
  regions: number;
  quorum: number;
  leaseBatch: number;
  postBatch: number;
  onProgress: (line: string) => void;
}): Promise<LocationCostBenchFigures> {
  const started = Date.now();
  const local = await startDynamoDbLocal();
  try {
    const run = await runLocationCost({ endpoint: local.endpoint, ...options });
    return { ...run, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    await local.stop();
  }
}

const usd = (v: number) => `$${round(v, 3)}`;
const units = (v: number) => String(round(v, 2));

/** The tables (Markdown): $ per million slots and probes by service, units per item type, fixed costs. */
export function formatLocationCost(f: LocationCostBenchFigures): string {
  const n = f.regions.length;
  const m = f.perSlot.dollarsPerMillion;
  const perProbe = (v: number) => usd(v / n);
  const row = (label: string, v: number) => [label, usd(v), perProbe(v)];
  const fixed = regionFixedMonthly(f.idleLease);
  const out = [
    `Cost of a located check in the cloud runtime (${f.checks} http checks, ${f.slots} metered slots each, probed from ${n} AWS regions (${f.regions.join(', ')}), quorum ${f.quorum}, every region up; leases of ${f.leaseBatch} jobs, result posts of ${f.postBatch}; the generator, the worker and the api function's agent routes over DynamoDB Local under the cost meter; us-east-1 list prices: API Gateway HTTP API $${PRICES.apiGatewayRequest * 1e6}/M, WRU $${PRICES.writeRequestUnit * 1e6}/M, RRU $${PRICES.readRequestUnit * 1e6}/M, SQS $${PRICES.sqsRequest * 1e6}/M; ${f.decided} of ${f.located} slots decided):\n`,
    table(
      ['$ per million', 'located slots (checks)', 'region probes'],
      [
        row('total (variable)', m.atScale),
        row('  API Gateway (leases, result posts)', m.apiGateway),
        row('  Lambda (home api function, worker)', m.lambda),
        row('  DynamoDB', m.dynamodb),
        row('  SQS (probe job, decide job)', m.sqs),
        row('beside: the generator and scheduler, once a minute', m.fixed),
      ],
    ),
    `\nPer located slot: ${units(f.perSlot.wru)} WRU, ${units(f.perSlot.rru)} RRU, ${units(f.perSlot.sqsRequests)} SQS requests, ${units(f.snapshot.apiRequests / f.located)} API requests, invocations ${Object.entries(
      f.perSlot.invocations,
    )
      .map(([fn, v]) => `${fn} ${units(v)}`)
      .join(', ')}. Per item type:\n`,
    table(
      ['item type', 'WRU (table + index)', 'RRU', '$/M slots'],
      Object.entries(f.perSlot.byEntity).map(([type, c]) => [
        type,
        `${units(c.wru)} + ${units(c.gsiWru)}`,
        units(c.rru),
        usd(c.dollars),
      ]),
    ),
    `\nFixed, per region and 30-day month, whatever the checks (the region function runs every minute for ${REGION_RUN.leaseForMs / 1000} s; idle, it short-polls the home every ${REGION_RUN.idlePollMs / 1000} s, each idle lease metered: ${usd(f.idleLease.dollarsPerMillion.atScale)} per million):\n`,
    table(
      ['per region and month', '$'],
      fixed.rows.map(([label, dollars]) => [label, usd(dollars)]),
    ),
    `\nTotal fixed per region: ${usd(fixed.total)} a month.`,
  ];
  return out.join('\n');
}
