import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import { composeReportsFunction } from '../lib/cloud/reports-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';
import type { SweepCounts } from '../lib/reports/report-sender.ts';

/** EventBridge Scheduler, every 15 minutes -> one sweep of the due report e-mails. */
export function createReportsLambda(deps: {
  reportsHandler(): () => Promise<SweepCounts>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.reportsHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

// Only what this function runs: the report sweep and SES (lib/cloud/reports-composition.ts).
export const handler = createReportsLambda(composeReportsFunction(createCloudBase(loadConfig('cloud'))));
