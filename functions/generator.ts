import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import type { GeneratorCounts } from '../lib/cloud/generator-composition.ts';
import { composeGeneratorFunction } from '../lib/cloud/generator-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** EventBridge Scheduler, every minute -> the generator for that minute's window. */
export function createGeneratorLambda(deps: {
  generatorHandler(): (event: unknown) => Promise<GeneratorCounts>;
  powertools: PowertoolsLogger;
}) {
  return middy(deps.generatorHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

// Only what this function runs: no routes, no MCP, no console (lib/cloud/generator-composition.ts).
export const handler = createGeneratorLambda(composeGeneratorFunction(createCloudBase(loadConfig('cloud'))));
