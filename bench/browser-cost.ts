import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BROWSER_FUNCTION_MEMORY_MB } from '../lib/cloud/browser-function.ts';
import { createBrowserRunner } from '../lib/probes/browser-runner.ts';
import { PRICES } from '../test/support/cost-prices.ts';
import { table } from './markdown.ts';
import { parseStat, TICKS_PER_SECOND } from './proc-tree.ts';
import { percentiles, round } from './stats.ts';

/**
 * `--only browsercost`: what one browser check run would cost in the cloud, at list prices, from
 * figures measured here: the run's duration (the browser runner's child, Chromium launched, a goto
 * and an assert on a page served on 127.0.0.1, closed), a failing run's screenshot, and the stored
 * result's size. The browser function (infra/browser.ts) is not under the cost meter, so its shape is
 * stated, not metered: one invocation per run billed for the run's duration at its memory
 * (BROWSER_FUNCTION_MEMORY_MB) on x86_64 (the @sparticuz/chromium package ships x64 only), one
 * SQS message per run, the result written to DynamoDB, a failing run's screenshot put to S3.
 */

/** us-east-1 list prices this adds to the cost meter's (test/support/cost-prices.ts PRICES). */
const BROWSER_PRICES = {
  /** S3 Standard PUT, $0.005 per 1,000: https://aws.amazon.com/s3/pricing/. */
  s3Put: 0.005 / 1000,
  /** S3 Standard storage, first 50 TB, per GB-month. */
  s3GbMonth: 0.023,
} as const;

/** SQS requests per run: the job's SendMessage, ReceiveMessage and DeleteMessage. */
const SQS_REQUESTS_PER_RUN = 3;
/** Write units beside the result item's own: the check's state and last result (one item, under 1 KB). */
const STATE_WRITE_UNITS = 1;
/** A stored result's own fields beside the run's steps and vitals (ids, times, outcome, message): an estimate. */
const RESULT_FIELDS_BYTES = 300;
/** How long a failing run's screenshot is kept (days): an assumption. */
const SCREENSHOT_RETENTION_DAYS = 30;

/** Other products' list prices per browser check run, with where they are stated. */
const LIST_PRICES = [
  {
    product: 'CloudWatch Synthetics',
    perRun: 0.0012,
    source:
      'https://aws.amazon.com/cloudwatch/pricing/ ("$0.0012 per canary run"; also quoted at thomasstep.com/blog/cloudformation-for-creating-canary)',
  },
  {
    product: 'Checkly (browser check, prepaid bundles)',
    perRun: 5 / 1000,
    source:
      'https://docs.checklyhq.com/docs/monitoring/check-pricing ("Browser: $5 per 1k runs"; overages cost more)',
  },
] as const;

export interface BrowserRunInputs {
  /** Billed duration of one run (ms). */
  runMs: number;
  /** The stored result's size (bytes). */
  resultBytes: number;
  /** A failing run's screenshot (bytes). */
  screenshotBytes: number;
  /** Share of runs that fail (and keep a screenshot), 0..1. */
  failureRate: number;
  memoryMb?: number;
}

export interface BrowserRunCost {
  /** Dollars per 1,000 runs, by part, and in all. */
  lambdaCompute: number;
  invocation: number;
  sqs: number;
  resultWrite: number;
  screenshots: number;
  total: number;
  /** Write units per run: the result item's (1 per started KB) and the state's. */
  writeUnits: number;
}

/** Dollars per 1,000 browser runs at list prices. */
export function browserRunCost(inputs: BrowserRunInputs): BrowserRunCost {
  const gb = (inputs.memoryMb ?? BROWSER_FUNCTION_MEMORY_MB) / 1024;
  const writeUnits = Math.max(1, Math.ceil(inputs.resultBytes / 1024)) + STATE_WRITE_UNITS;
  const screenshotGb = inputs.screenshotBytes / 1024 ** 3;
  const perRun = {
    lambdaCompute: gb * (inputs.runMs / 1000) * PRICES.lambdaGbSecond,
    invocation: PRICES.lambdaInvocation,
    sqs: SQS_REQUESTS_PER_RUN * PRICES.sqsRequest,
    resultWrite: writeUnits * PRICES.writeRequestUnit,
    screenshots:
      inputs.failureRate *
      (BROWSER_PRICES.s3Put + screenshotGb * BROWSER_PRICES.s3GbMonth * (SCREENSHOT_RETENTION_DAYS / 30)),
  };
  const k = (v: number) => v * 1000;
  const parts = {
    lambdaCompute: k(perRun.lambdaCompute),
    invocation: k(perRun.invocation),
    sqs: k(perRun.sqs),
    resultWrite: k(perRun.resultWrite),
    screenshots: k(perRun.screenshots),
  };
  return { ...parts, total: Object.values(parts).reduce((a, b) => a + b, 0), writeUnits };
}

export interface BrowserCostFigures {
  runs: number;
  /** Wall time of a run here (the machine's contention included). */
  runMs: ReturnType<typeof percentiles>;
  /** CPU time of a run's processes (the runner's child and Chromium). */
  cpuMs: ReturnType<typeof percentiles>;
  resultBytes: number;
  screenshotBytes: number;
  failureRate: number;
  cost: BrowserRunCost;
  /** The same with every run failing. */
  allFailing: BrowserRunCost;
  /** Billed the run's CPU time instead of its wall time here: a run on an idle vCPU. */
  byCpu: BrowserRunCost;
}

/** CPU ms of this process's children it has waited for (each run's child, and Chromium under it). */
const reapedCpuMs = () =>
  (parseStat(readFileSync('/proc/self/stat', 'utf8')).reapedTicks * 1000) / TICKS_PER_SECOND;

const PAGE = `<!doctype html><html><head><title>Status</title></head><body><p id="status">All systems go</p></body></html>`;

/** Measures `runs` runs one after another (and one failing run), then prices them. */
export async function runBrowserCost(options: {
  runs: number;
  failureRate: number;
  onProgress: (line: string) => void;
}): Promise<BrowserCostFigures> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`;
  const runner = createBrowserRunner({ concurrency: 1 });
  const run = (text: string) =>
    runner({
      steps: [
        { action: 'goto', url },
        { action: 'assert', subject: 'text', selector: '#status', text },
      ],
      timeoutMs: 20_000,
      allowPrivate: true,
    });
  try {
    const durations: number[] = [];
    const cpuTimes: number[] = [];
    let resultBytes = 0;
    for (let i = 0; i < options.runs; i += 1) {
      const t0 = performance.now();
      const cpu0 = reapedCpuMs();
      const answer = await run('All systems go');
      durations.push(performance.now() - t0);
      cpuTimes.push(reapedCpuMs() - cpu0);
      if (answer.steps.some((s) => s.outcome !== 'passed')) throw new Error('a passing run failed');
      // What a result keeps of a run: its steps and vitals (screenshots go to S3).
      resultBytes = Math.max(
        resultBytes,
        Buffer.byteLength(JSON.stringify({ steps: answer.steps, vitals: answer.vitals })),
      );
      options.onProgress(
        `run ${i + 1} of ${options.runs}: ${Math.round(durations.at(-1) ?? 0)} ms, ${Math.round(cpuTimes.at(-1) ?? 0)} ms of CPU`,
      );
    }
    const failing = await run('Something else');
    const shot = failing.screenshots.at(-1)?.jpeg ?? '';
    const screenshotBytes = Buffer.from(shot, 'base64').length;
    const runMs = percentiles(durations);
    const cpuMs = percentiles(cpuTimes);
    const stored = resultBytes + RESULT_FIELDS_BYTES;
    const inputs = { runMs: runMs.p50, resultBytes: stored, screenshotBytes };
    return {
      runs: options.runs,
      runMs,
      cpuMs,
      resultBytes: stored,
      screenshotBytes,
      failureRate: options.failureRate,
      cost: browserRunCost({ ...inputs, failureRate: options.failureRate }),
      allFailing: browserRunCost({ ...inputs, failureRate: 1 }),
      byCpu: browserRunCost({ ...inputs, runMs: cpuMs.p50, failureRate: options.failureRate }),
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const usd = (v: number) => `$${round(v, 4)}`;

/** The figures as Markdown: $ per 1,000 runs by part, then the list prices beside them. */
export function formatBrowserCost(f: BrowserCostFigures): string {
  const row = (name: string, pick: (c: BrowserRunCost) => number) => [
    name,
    usd(pick(f.cost)),
    usd(pick(f.allFailing)),
    usd(pick(f.byCpu)),
  ];
  return [
    `Cost of a browser run in the cloud (modelled: ${BROWSER_FUNCTION_MEMORY_MB} MB x86_64, billed the measured run time p50 ${Math.round(f.runMs.p50)} ms (p99 ${Math.round(f.runMs.p99)} ms, ${f.runs} runs one at a time on this machine; their CPU time p50 ${Math.round(f.cpuMs.p50)} ms); result ${f.resultBytes} bytes (${f.cost.writeUnits} WRU with the check's state); a failing run's screenshot ${f.screenshotBytes} bytes kept ${SCREENSHOT_RETENTION_DAYS} days; us-east-1 list prices):\n`,
    table(
      [
        '$ per 1,000 runs',
        `${round(f.failureRate * 100, 2)} % failing`,
        'every run failing',
        `${round(f.failureRate * 100, 2)} % failing, billed the CPU time (${Math.round(f.cpuMs.p50)} ms)`,
      ],
      [
        row('Lambda compute (GB-s)', (c) => c.lambdaCompute),
        row('Lambda invocation', (c) => c.invocation),
        row(`SQS (${SQS_REQUESTS_PER_RUN} requests)`, (c) => c.sqs),
        row('DynamoDB result write', (c) => c.resultWrite),
        row('S3 screenshot (PUT + storage)', (c) => c.screenshots),
        row('total', (c) => c.total),
      ],
    ),
    '\nList prices per 1,000 browser runs:\n',
    table(
      ['product', '$ per 1,000 runs', 'source'],
      LIST_PRICES.map((p) => [p.product, usd(p.perRun * 1000), p.source]),
    ),
  ].join('\n');
}
