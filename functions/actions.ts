import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { createCloudApp } from '../lib/cloud/composition.ts';

/** SQS action jobs -> the action worker (trigger fan-out, runs, pipeline deadlines); failed records get their retry delay and are reported. */
export function createActionWorkerLambda(deps: {
  actionWorkerHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.actionWorkerHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

export const handler = createActionWorkerLambda(createCloudApp());
