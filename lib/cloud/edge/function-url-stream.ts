import type { Writable } from 'node:stream';
import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationPaths } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { App } from '../../app.ts';
import {
  functionUrlHandler,
  type LambdaStreamingRuntime,
  streamifyHandler,
} from '../../lambda-http/stream-lambda.ts';
import type { Config } from '../../platform/config.ts';
import type { Logger } from '../../platform/logger.ts';
import { internalErrorFallback } from './lambda-edge.ts';
import { tracedRouter, traceInvocations } from './tracing.ts';

/**
 * Function URL (RESPONSE_STREAM) -> the shared router, streamed: the edge of every streaming
 * function (the status stream, MCP). Not middy's own streamifyResponse: it reads the global
 * `awslambda` when built and on every request, so no other runtime could be passed in; the middy
 * chain runs inside the runtime's streamifyResponse instead. Without `config` (or its edgeSecret)
 * the console edge's viewer address is never believed; with `tracer`, each invocation is an X-Ray
 * subsegment annotated with its route and status (lib/cloud/edge/tracing.ts).
 */
export function createStreamingUrlHandler<S extends Writable>(deps: {
  app: Pick<App, 'router'>;
  powertools: PowertoolsLogger;
  logger: Logger;
  runtime: LambdaStreamingRuntime<S>;
  config?: Pick<Config, 'edgeSecret'>;
  tracer?: Tracer;
}) {
  const trust = { edgeSecret: deps.config?.edgeSecret };
  const router = deps.tracer ? tracedRouter(deps.app.router, deps.tracer) : deps.app.router;
  const chain = middy(functionUrlHandler(router, deps.logger, trust));
  if (deps.tracer) chain.use(traceInvocations(deps.tracer));
  chain
    .use(
      injectLambdaContext(deps.powertools, {
        correlationIdPath: correlationPaths.LAMBDA_FUNCTION_URL,
        resetKeys: true,
      }),
    )
    .use(httpErrorHandler(internalErrorFallback(deps.logger)));
  return streamifyHandler(deps.runtime, chain);
}
