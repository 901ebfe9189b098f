import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import { composeWorkerFunction } from '../lib/cloud/worker-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** SQS probe jobs -> Powertools batch processing; failed records get their retry delay and are reported. */
export function createWorkerLambda(deps: {
  workerHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.workerHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

// Only what this function runs: no routes, no MCP, no console (lib/cloud/worker-composition.ts).
export const handler = createWorkerLambda(composeWorkerFunction(createCloudBase(loadConfig('cloud'))));
