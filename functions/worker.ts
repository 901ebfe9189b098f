import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { createCloudApp } from '../lib/cloud/composition.ts';

/** SQS probe jobs -> Powertools batch processing; failed records get their retry delay and are reported. */
export function createWorkerLambda(deps: {
  workerHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.workerHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

export const handler = createWorkerLambda(createCloudApp());
