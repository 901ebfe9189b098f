import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { composeActionFunction } from '../lib/cloud/action-composition.ts';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** SQS action jobs -> the action worker (trigger fan-out, runs, pipeline deadlines); failed records get their retry delay and are reported. */
export function createActionWorkerLambda(deps: {
  actionWorkerHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.actionWorkerHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

// Only what this function runs: no routes, no MCP, no console (lib/cloud/action-composition.ts).
export const handler = createActionWorkerLambda(composeActionFunction(createCloudBase(loadConfig('cloud'))));
