import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import { composeNotifierFunction } from '../lib/cloud/notifier-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** SQS notify jobs -> the notifier (evaluate, deliver, repeat); failed records get their retry delay and are reported. */
export function createNotifierLambda(deps: {
  notifierHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.notifierHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

// Only what this function runs: no routes, no MCP, no console (lib/cloud/notifier-composition.ts).
export const handler = createNotifierLambda(composeNotifierFunction(createCloudBase(loadConfig('cloud'))));
