import { PRICES } from '../test/support/cost-prices.ts';
import { type CostMode, type CostRun, runPullCheckCost } from '../test/support/cost-run.ts';
import { startDynamoDbLocal } from '../test/support/dynamodb-local.ts';
import { table } from './markdown.ts';
import { round } from './stats.ts';

/**
 * `--only cost`: the cloud pull-check path under the cost meter (test/support/cost-run.ts, the
 * run test/cost/pull-check-cost.test.ts asserts on) over a DynamoDB Local of its own, priced at
 * list prices. Nothing here is timed, so it runs in this process.
 */

export type CostBenchFigures = Record<CostMode, CostRun> & { seconds: number };

export async function runCost(options: {
  checks: number;
  cycles: number;
  onProgress: (line: string) => void;
}): Promise<CostBenchFigures> {
  const started = Date.now();
  const local = await startDynamoDbLocal();
  try {
    const runs = await runPullCheckCost({ endpoint: local.endpoint, ...options });
    return { ...runs, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    await local.stop();
  }
}

const usd = (v: number) => `$${round(v, 2)}`;
const units = (v: number) => String(round(v, 2));

/** The cost tables (Markdown): dollars per million results, then the units per item type. */
export function formatCost(f: CostBenchFigures): string {
  const { healthy: h, flapping: s } = f;
  const money = (pick: (r: CostRun) => number) => [usd(pick(h)), usd(pick(s))];
  const count = (pick: (r: CostRun) => number) => [units(pick(h)), units(pick(s))];
  const streams = (r: CostRun) =>
    `${units(r.perResult.streamRecords)} (${units(r.keptStreamRecords / r.results)})`;
  const invocations = (r: CostRun) =>
    Object.entries(r.perResult.invocations)
      .map(([fn, n]) => `${fn} ${round(n, 3)}`)
      .join(', ');
  const out = [
    `Cost of a pull check in the cloud runtime (${h.checks} http checks, ${h.cycles} one-minute cycles per column, DynamoDB Local under the cost meter, us-east-1 on-demand list prices: WRU $${PRICES.writeRequestUnit * 1e6}/M, RRU $${PRICES.readRequestUnit * 1e6}/M):\n`,
    table(
      ['per result', 'healthy', 'state change (flapping)'],
      [
        ['$ per million checks, at scale', ...money((r) => r.perResult.dollarsPerMillion.atScale)],
        [
          `$ per million, ${h.checks} checks (generator and scheduler included)`,
          ...money((r) => r.perResult.dollarsPerMillion.total),
        ],
        ['  DynamoDB', ...money((r) => r.perResult.dollarsPerMillion.dynamodb)],
        ['  SQS', ...money((r) => r.perResult.dollarsPerMillion.sqs)],
        ['  Lambda (not the generator)', ...money((r) => r.perResult.dollarsPerMillion.lambda)],
        ['  EventBridge PutEvents', ...money((r) => r.perResult.dollarsPerMillion.eventBridge)],
        ['write request units (table + indexes)', ...count((r) => r.perResult.wru)],
        ['read request units', ...count((r) => r.perResult.rru)],
        ['stream records (passed by the filter)', streams(h), streams(s)],
        ['SQS requests', ...count((r) => r.perResult.sqsRequests)],
        ['Lambda invocations', invocations(h), invocations(s)],
      ],
    ),
    '\nHottest partition keys (most table write units in one wall-clock second, as the meter counts them):\n',
    table(
      ['phase', 'seconds', 'hottest keys (WCU in their busiest second)'],
      [h, s].map((r) => [
        r.mode,
        String(round(r.seconds, 1)),
        r.hottestKeys
          .map((k) => `${k.pk.replace(/(tnt|cel|chk|ent)_[0-9A-Z]{26}/g, '<$1>')} ${units(k.wcu)}`)
          .join('; '),
      ]),
    ),
    '\nPer item type, per result (WRU table + index, RRU, stream records, $ per million):\n',
  ];
  const types = [
    ...new Set([...Object.keys(h.perResult.byEntity), ...Object.keys(s.perResult.byEntity)]),
  ].sort();
  const cell = (r: CostRun, type: string) => {
    const c = r.perResult.byEntity[type];
    if (!c) return ['-', '-', '-', '-'];
    return [`${units(c.wru)} + ${units(c.gsiWru)}`, units(c.rru), units(c.streamRecords), usd(c.dollars)];
  };
  out.push(
    table(
      ['item type', 'healthy WRU', 'RRU', 'stream', '$/M', 'flapping WRU', 'RRU', 'stream', '$/M'],
      types.map((type) => [type, ...cell(h, type), ...cell(s, type)]),
    ),
  );
  return out.join('\n');
}
