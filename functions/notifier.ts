import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import { composeNotifierFunction } from '../lib/cloud/notifier-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** SQS notify jobs -> the notifier (evaluate, deliver, repeat); failed records get their retry delay and are reported. */
export function createNotifierLambda(deps: {
  notifierHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
  /** Powertools Metrics, flushed as EMF after each invocation; without it nothing is emitted. */
  metrics?: Metrics;
}) {
  const lambda = middy(deps.notifierHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
  return deps.metrics ? lambda.use(logMetrics(deps.metrics)) : lambda;
}

// Only what this function runs: no routes, no MCP, no console (lib/cloud/notifier-composition.ts).
export const handler = createNotifierLambda(composeNotifierFunction(createCloudBase(loadConfig('cloud'))));
