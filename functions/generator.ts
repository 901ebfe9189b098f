import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { createCloudApp } from '../lib/cloud/composition.ts';
import type { GeneratorCounts } from '../lib/cloud/generator.ts';

/** EventBridge Scheduler, every minute -> the generator for that minute's window. */
export function createGeneratorLambda(deps: {
  generatorHandler(): (event: unknown) => Promise<GeneratorCounts>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.generatorHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

export const handler = createGeneratorLambda(createCloudApp());
