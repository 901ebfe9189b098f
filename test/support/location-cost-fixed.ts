import { REGION_RUN } from '../../lib/agent/region-function.ts';
import { type CostFigures, LAMBDA_MEMORY_GB, PRICES } from './cost-prices.ts';

/**
 * The fixed part of an AWS region probe location's bill (infra/probe-region.ts): what it costs
 * each month with no check at all. The region function is invoked every minute and runs its 50 s
 * whatever the work; while nothing is due it short-polls the home (lib/agent/region-function.ts):
 * a lease that waits 0 s, then a pause of REGION_RUN.idlePollMs of its own. What one such idle
 * lease costs the home (API Gateway, the api function, DynamoDB) is metered
 * (test/support/location-cost-run.ts `idleLease`); the rest is stated from the design.
 */

const MINUTES_PER_MONTH = 30 * 24 * 60;
/** Secrets Manager: per secret and month (https://aws.amazon.com/secrets-manager/pricing/). */
const SECRET_MONTHLY = 0.4;
/** The region function's billed time per run: its lease time and the last posts. */
const REGION_RUN_SECONDS = REGION_RUN.leaseForMs / 1000 + 2;

/** Idle leases a run asks at most: one per pause (a lease's own round trip only spaces them more). */
const IDLE_LEASES_PER_RUN = Math.ceil(REGION_RUN.leaseForMs / REGION_RUN.idlePollMs);

export function regionFixedMonthly(idleLease: CostFigures): { rows: [string, number][]; total: number } {
  const runs = MINUTES_PER_MONTH;
  const gbSecond = LAMBDA_MEMORY_GB * PRICES.lambdaGbSecond;
  const heartbeatsPerRun = Math.ceil(REGION_RUN.leaseForMs / REGION_RUN.heartbeatIntervalMs);
  const leases = runs * IDLE_LEASES_PER_RUN;
  const perLease = (dollarsPerMillion: number) => (leases * dollarsPerMillion) / 1e6;
  const idle = idleLease.dollarsPerMillion;
  const rows: [string, number][] = [
    [
      `region function: ${runs} runs of ~${REGION_RUN_SECONDS} s at ${LAMBDA_MEMORY_GB * 1024} MB (x86 price; arm64 is 20% less)`,
      runs * (PRICES.lambdaInvocation + REGION_RUN_SECONDS * gbSecond),
    ],
    [`EventBridge Scheduler: ${runs} invocations`, runs * PRICES.schedulerInvocation],
    ['Secrets Manager: the location key secret', SECRET_MONTHLY],
    [
      `home API Gateway: ${IDLE_LEASES_PER_RUN} idle leases (short polls, ${REGION_RUN.idlePollMs / 1000} s apart) and ${heartbeatsPerRun} heartbeats a minute`,
      perLease(idle.apiGateway) + runs * heartbeatsPerRun * PRICES.apiGatewayRequest,
    ],
    [`home api function: the idle leases (metered: a key read, a query; no wait)`, perLease(idle.lambda)],
    [
      `home DynamoDB: the idle leases (metered: ${round2(idleLease.wru)} WRU, ${round2(idleLease.rru)} RRU each)`,
      perLease(idle.dynamodb),
    ],
  ];
  return { rows, total: rows.reduce((sum, [, dollars]) => sum + dollars, 0) };
}

const round2 = (v: number) => Math.round(v * 100) / 100;
