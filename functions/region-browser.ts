import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { createRegionBrowserHandler } from '../lib/agent/region-browser-function.ts';
import { createPowertoolsLogger, fromPowertools } from '../lib/cloud/lambda.ts';
import { systemClock } from '../lib/platform/clock.ts';
import { type Config, loadConfig } from '../lib/platform/config.ts';
import type { BrowserRunner } from '../lib/probes/browser-runner.ts';
import { lambdaBrowserRunner } from '../lib/probes/lambda-chromium.ts';

/** The region's probe function, for a browser leg -> one Chromium run -> its result (infra/probe-region.ts). */
export function createRegionBrowserLambda(deps: {
  browserHandler: (event: unknown, context: Context) => Promise<unknown>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.browserHandler).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

/** The function as deployed: a runner and nothing else (no table, queue, secret or bucket). */
export function composeRegionBrowserFunction(
  config: Pick<Config, 'logLevel' | 'allowPrivateTargets'>,
  runner: BrowserRunner,
  logWrite?: (line: string) => void,
) {
  const powertools = createPowertoolsLogger({
    level: config.logLevel,
    ...(logWrite ? { write: logWrite } : {}),
  });
  const logger = fromPowertools(powertools);
  const browserHandler = createRegionBrowserHandler({
    runner,
    allowPrivate: config.allowPrivateTargets,
    clock: systemClock,
    logger,
  });
  return { browserHandler, powertools };
}

export const handler = createRegionBrowserLambda(
  composeRegionBrowserFunction(loadConfig('cloud'), lambdaBrowserRunner()),
);
