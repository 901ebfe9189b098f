import { MAX_WAIT_SECONDS } from '../../lib/agent/protocol.ts';
import { REGION_RUN } from '../../lib/agent/region-function.ts';
import { LAMBDA_MEMORY_GB, PRICES } from './cost-prices.ts';

/**
 * The fixed part of an AWS region probe location's bill (infra/probe-region.ts): what it costs
 * each month with no check at all, stated from the design, not metered. The region function is
 * invoked every minute and runs its 50 s whatever the work; while idle, each lease it asks for
 * waits MAX_WAIT_SECONDS in the home's api function (a long-poll bills its wall time there), which
 * reads the location's jobs every 500 ms meanwhile (lib/locations/lease-service.ts).
 */

export const LEASE_WAIT_SECONDS_IDLE = MAX_WAIT_SECONDS;
const MINUTES_PER_MONTH = 30 * 24 * 60;
/** Secrets Manager: per secret and month (https://aws.amazon.com/secrets-manager/pricing/). */
const SECRET_MONTHLY = 0.4;
/** The region function's billed time per run: its lease time and the last posts. */
const REGION_RUN_SECONDS = REGION_RUN.leaseForMs / 1000 + 2;
/** An idle lease's reads: one every 500 ms, each a consistent query finding nothing (1 RRU). */
const IDLE_READS_PER_SECOND = 2;

export function regionFixedMonthly(): { rows: [string, number][]; total: number } {
  const runs = MINUTES_PER_MONTH;
  const gbSecond = LAMBDA_MEMORY_GB * PRICES.lambdaGbSecond;
  // Leases of 20, 20 and 10 s fill the 50 s of a run.
  const leaseSecondsPerRun = REGION_RUN.leaseForMs / 1000;
  const leasesPerRun = Math.ceil(leaseSecondsPerRun / LEASE_WAIT_SECONDS_IDLE);
  const heartbeatsPerRun = Math.ceil(REGION_RUN.leaseForMs / REGION_RUN.heartbeatIntervalMs);
  const rows: [string, number][] = [
    [
      `region function: ${runs} runs of ~${REGION_RUN_SECONDS} s at ${LAMBDA_MEMORY_GB * 1024} MB (x86 price; arm64 is 20% less)`,
      runs * (PRICES.lambdaInvocation + REGION_RUN_SECONDS * gbSecond),
    ],
    [`EventBridge Scheduler: ${runs} invocations`, runs * PRICES.schedulerInvocation],
    ['Secrets Manager: the location key secret', SECRET_MONTHLY],
    [
      `home API Gateway: ${leasesPerRun} leases and ${heartbeatsPerRun} heartbeats a minute`,
      runs * (leasesPerRun + heartbeatsPerRun) * PRICES.apiGatewayRequest,
    ],
    [
      `home api function: idle leases held ${leaseSecondsPerRun} s a minute (a long-poll bills its wait)`,
      runs * (leasesPerRun * PRICES.lambdaInvocation + leaseSecondsPerRun * gbSecond),
    ],
    [
      `home DynamoDB: the idle leases' reads (${IDLE_READS_PER_SECOND} a second)`,
      runs * leaseSecondsPerRun * IDLE_READS_PER_SECOND * PRICES.readRequestUnit,
    ],
  ];
  return { rows, total: rows.reduce((sum, [, dollars]) => sum + dollars, 0) };
}
