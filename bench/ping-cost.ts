import { API_MS_BASE, API_MS_PER_DYNAMODB_CALL, apiDurationMs, PRICES } from '../test/support/cost-prices.ts';
import { startDynamoDbLocal } from '../test/support/dynamodb-local.ts';
import { type PingCostMode, type PingCostRun, runPingCost } from '../test/support/ping-cost-run.ts';
import { table } from './markdown.ts';
import { round } from './stats.ts';

/**
 * `--only pingcost`: a heartbeat's cost in the cloud runtime under the cost meter
 * (test/support/ping-cost-run.ts, the run test/cost/ping-cost.test.ts asserts on) over a DynamoDB
 * Local of its own, priced at list prices. Nothing here is timed, so it runs in this process.
 */

export type PingCostBenchFigures = Record<PingCostMode, PingCostRun> & { seconds: number };

export async function runPingCostBench(options: {
  checks: number;
  pings: number;
  everyMinutes: number;
  onProgress: (line: string) => void;
}): Promise<PingCostBenchFigures> {
  const started = Date.now();
  const local = await startDynamoDbLocal();
  try {
    const runs = await runPingCost({ endpoint: local.endpoint, ...options });
    return { ...runs, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    await local.stop();
  }
}

const usd = (v: number) => `$${round(v, 2)}`;
const units = (v: number) => String(round(v, 2));

/** The tables (Markdown): dollars per million reports by service, then the units per item type. */
export function formatPingCost(f: PingCostBenchFigures): string {
  const { pingUrl: u, ping: p, keyed: k } = f;
  const money = (pick: (r: PingCostRun) => number) => [usd(pick(u)), usd(pick(p)), usd(pick(k))];
  const count = (pick: (r: PingCostRun) => number) => [units(pick(u)), units(pick(p)), units(pick(k))];
  const calls = (r: PingCostRun) =>
    Object.entries(r.snapshot.calls)
      .map(([op, n]) => `${op} ${round(n / r.requests, 2)}`)
      .join(', ');
  const out = [
    `Cost of a heartbeat in the cloud runtime (${p.checks} push checks per column, each reported ${p.pings} times, one every ${p.everyMinutes} min; the ping and api functions' handlers over DynamoDB Local under the cost meter; us-east-1 list prices: API Gateway HTTP API $${PRICES.apiGatewayRequest * 1e6}/M, WRU $${PRICES.writeRequestUnit * 1e6}/M, RRU $${PRICES.readRequestUnit * 1e6}/M; api function 512 MB, billed ${API_MS_BASE} ms + ${API_MS_PER_DYNAMODB_CALL} ms per DynamoDB call):\n`,
    table(
      [
        'per report',
        'GET /ping/<token> (ping function URL)',
        'GET /ping/<token> (API Gateway)',
        'POST /v1/checks/{id}/results (API key)',
      ],
      [
        ['$ per million', ...money((r) => r.perPing.dollarsPerMillion.atScale)],
        ['  API Gateway', ...money((r) => r.perPing.dollarsPerMillion.apiGateway)],
        ['  Lambda (api or ping function)', ...money((r) => r.perPing.dollarsPerMillion.lambda)],
        ['  DynamoDB', ...money((r) => r.perPing.dollarsPerMillion.dynamodb)],
        [
          '  SQS, EventBridge',
          ...money((r) => r.perPing.dollarsPerMillion.sqs + r.perPing.dollarsPerMillion.eventBridge),
        ],
        ['write request units (table + indexes)', ...count((r) => r.perPing.wru)],
        ['read request units', ...count((r) => r.perPing.rru)],
        ['DynamoDB calls', calls(u), calls(p), calls(k)],
        [
          'function billed ms (model)',
          units(apiDurationMs(u.snapshot, 'ping')),
          units(apiDurationMs(p.snapshot)),
          units(apiDurationMs(k.snapshot)),
        ],
        ['stream records passed to the stream function', ...count((r) => r.keptStreamRecords / r.requests)],
      ],
    ),
    '\nPer item type, per report (WRU table + index, RRU, $ per million):\n',
  ];
  const types = [...new Set([u, p, k].flatMap((r) => Object.keys(r.perPing.byEntity)))].sort();
  const cell = (r: PingCostRun, type: string) => {
    const c = r.perPing.byEntity[type];
    if (!c) return ['-', '-', '-'];
    return [`${units(c.wru)} + ${units(c.gsiWru)}`, units(c.rru), usd(c.dollars)];
  };
  out.push(
    table(
      ['item type', 'ping URL WRU', 'RRU', '$/M', 'API ping WRU', 'RRU', '$/M', 'keyed WRU', 'RRU', '$/M'],
      types.map((type) => [type, ...cell(u, type), ...cell(p, type), ...cell(k, type)]),
    ),
  );
  return out.join('\n');
}
