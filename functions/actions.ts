import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { composeActionFunction } from '../lib/cloud/action-composition.ts';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** SQS action jobs -> the action worker (trigger fan-out, runs, pipeline deadlines); failed records get their retry delay and are reported. */
export function createActionWorkerLambda(deps: {
  actionWorkerHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
  /** Powertools Metrics, flushed as EMF after each invocation; without it nothing is emitted. */
  metrics?: Metrics;
}) {
  const lambda = middy(deps.actionWorkerHandler()).use(
    injectLambdaContext(deps.powertools, { resetKeys: true }),
  );
  return deps.metrics ? lambda.use(logMetrics(deps.metrics)) : lambda;
}

// Only what this function runs: no routes, no MCP, no console (lib/cloud/action-composition.ts).
export const handler = createActionWorkerLambda(composeActionFunction(createCloudBase(loadConfig('cloud'))));
