import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationPaths } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { App } from '../app.ts';
import { apiGatewayHandler } from '../lambda-http/lambda-adapter.ts';
import type { Config } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import { internalErrorFallback } from './lambda-edge.ts';
import { tracedRouter, traceInvocations } from './tracing.ts';

export interface ApiHandlerDeps {
  app: Pick<App, 'router'>;
  powertools: PowertoolsLogger;
  logger: Logger;
  config?: Pick<Config, 'edgeSecret'>;
  tracer?: Tracer;
}

/**
 * API Gateway HTTP API (payload v2) -> the shared router; the request id is the correlation id.
 * Without `config` (or its edgeSecret) the console edge's viewer address is never believed;
 * with `tracer`, each invocation is an X-Ray subsegment annotated with its route and status.
 */
export function createApiHandler(deps: ApiHandlerDeps) {
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

/** What a path outside the Pinging API gets from the ping function, before any routing. */
const NOT_A_PING: APIGatewayProxyStructuredResultV2 = {
  statusCode: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body: 'not found',
};

/**
 * The ping function's handler (functions/ping.ts, infra/ping.ts): the Pinging API (`/ping/*`,
 * lib/push/pings/ping-routes.ts) behind a Lambda function URL, so a heartbeat pays no API Gateway
 * request (docs/aws.md "Ping URLs"). A function URL hands the function the same payload v2 event as
 * the HTTP API, so the api handler serves it; every other path answers 404 before any routing, so
 * the keyless URL reaches nothing but pings. Its guard rails are the app's own (each check's ping
 * bucket, the failed-authentication limits, the body cut) and the function's reserved concurrency,
 * in place of API Gateway's stage throttle.
 */
export function createPingHandler(deps: ApiHandlerDeps) {
  const api = createApiHandler(deps);
  return async (
    event: APIGatewayProxyEventV2,
    context: Context,
  ): Promise<APIGatewayProxyStructuredResultV2> =>
    event.rawPath.startsWith('/ping/') ? api(event, context) : NOT_A_PING;
}
