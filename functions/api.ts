import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationPaths } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { App } from '../lib/app.ts';
import { createCloudApp } from '../lib/cloud/composition.ts';
import { internalErrorFallback } from '../lib/cloud/lambda-edge.ts';
import { apiGatewayHandler } from '../lib/http/lambda-adapter.ts';
import type { Config } from '../lib/platform/config.ts';
import type { Logger } from '../lib/platform/logger.ts';

/**
 * API Gateway HTTP API (payload v2) -> the shared router; the request id is the correlation id.
 * Without `config` (or its edgeSecret) the console edge's viewer address is never believed.
 */
export function createApiHandler(deps: {
  app: Pick<App, 'router'>;
  powertools: PowertoolsLogger;
  logger: Logger;
  config?: Pick<Config, 'edgeSecret'>;
}) {
  return middy(apiGatewayHandler(deps.app.router, deps.logger, { edgeSecret: deps.config?.edgeSecret }))
    .use(
      injectLambdaContext(deps.powertools, {
        correlationIdPath: correlationPaths.API_GATEWAY_HTTP,
        resetKeys: true,
      }),
    )
    .use(httpErrorHandler(internalErrorFallback(deps.logger)));
}

export const handler = createApiHandler(createCloudApp());
