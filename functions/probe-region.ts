import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { secretsManagerReader } from '../lib/agent/location-key-secret.ts';
import { lambdaBrowserInvoke } from '../lib/agent/region-browser.ts';
import { createRegionHandler, type RegionRunAnswer } from '../lib/agent/region-function.ts';
import { createPowertoolsLogger, fromPowertools } from '../lib/cloud/lambda.ts';
import { systemClock } from '../lib/platform/clock.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** EventBridge Scheduler, every minute -> one bounded agent run against the home API (infra/probe-region.ts). */
export function createProbeRegionLambda(deps: {
  regionHandler: (event: unknown, context: Context) => Promise<RegionRunAnswer>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.regionHandler).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

/** The function as deployed: no table, no queue; the agent protocol over HTTPS, one secret and its region's browser function. */
export function composeProbeRegionFunction(config = loadConfig('cloud')) {
  const powertools = createPowertoolsLogger({ level: config.logLevel });
  const regionHandler = createRegionHandler({
    config,
    readSecret: secretsManagerReader(config.region),
    browser: config.regionBrowserFunction
      ? lambdaBrowserInvoke({ functionName: config.regionBrowserFunction, region: config.region })
      : undefined,
    clock: systemClock,
    logger: fromPowertools(powertools),
  });
  return { regionHandler, powertools };
}

export const handler = createProbeRegionLambda(composeProbeRegionFunction());
