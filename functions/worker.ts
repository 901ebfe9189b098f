import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import { composeWorkerFunction } from '../lib/cloud/worker-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** SQS probe jobs -> Powertools batch processing; failed records get their retry delay and are reported. */
export function createWorkerLambda(deps: {
  workerHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
  /** Powertools Metrics, flushed as EMF after each invocation; without it nothing is emitted. */
  metrics?: Metrics;
}) {
  const lambda = middy(deps.workerHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
  return deps.metrics ? lambda.use(logMetrics(deps.metrics)) : lambda;
}

// Only what this function runs: no routes, no MCP, no console (lib/cloud/worker-composition.ts).
export const handler = createWorkerLambda(composeWorkerFunction(createCloudBase(loadConfig('cloud'))));
