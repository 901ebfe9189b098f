import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationPaths } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { App } from '../lib/app.ts';
import { createCloudApp } from '../lib/cloud/composition.ts';
import { internalErrorFallback } from '../lib/cloud/lambda-edge.ts';
import { apiGatewayHandler } from '../lib/http/lambda-adapter.ts';
import type { Logger } from '../lib/platform/logger.ts';

/** API Gateway HTTP API (payload v2) -> the shared router; the request id is the correlation id. */
export function createApiHandler(deps: {
  app: Pick<App, 'router'>;
  powertools: PowertoolsLogger;
  logger: Logger;
}) {
  return middy(apiGatewayHandler(deps.app.router, deps.logger))
    .use(
      injectLambdaContext(deps.powertools, {
        correlationIdPath: correlationPaths.API_GATEWAY_HTTP,
        resetKeys: true,
      }),
    )
    .use(httpErrorHandler(internalErrorFallback(deps.logger)));
}

export const handler = createApiHandler(createCloudApp());
