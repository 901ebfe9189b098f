import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationPaths } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { App } from '../lib/app.ts';
import { createCloudApp } from '../lib/cloud/http-composition.ts';
import { internalErrorFallback } from '../lib/cloud/lambda-edge.ts';
import { createFunctionTracer, tracedRouter, traceInvocations } from '../lib/cloud/tracing.ts';
import { apiGatewayHandler } from '../lib/lambda-http/lambda-adapter.ts';
import { type Config, loadConfig } from '../lib/platform/config.ts';
import type { Logger } from '../lib/platform/logger.ts';

/**
 * API Gateway HTTP API (payload v2) -> the shared router; the request id is the correlation id.
 * Without `config` (or its edgeSecret) the console edge's viewer address is never believed;
 * with `tracer`, each invocation is an X-Ray subsegment annotated with its route and status.
 */
export function createApiHandler(deps: {
  app: Pick<App, 'router'>;
  powertools: PowertoolsLogger;
  logger: Logger;
  config?: Pick<Config, 'edgeSecret'>;
  tracer?: Tracer;
}) {
  const router = deps.tracer ? tracedRouter(deps.app.router, deps.tracer) : deps.app.router;
  const lambda = middy(apiGatewayHandler(router, deps.logger, { edgeSecret: deps.config?.edgeSecret }));
  // First in, last out: the subsegment spans the other middlewares too.
  if (deps.tracer) lambda.use(traceInvocations(deps.tracer));
  return lambda
    .use(
      injectLambdaContext(deps.powertools, {
        correlationIdPath: correlationPaths.API_GATEWAY_HTTP,
        resetKeys: true,
      }),
    )
    .use(httpErrorHandler(internalErrorFallback(deps.logger)));
}

const tracer = createFunctionTracer('api');
export const handler = createApiHandler({ ...createCloudApp(loadConfig('cloud'), {}, { tracer }), tracer });
