import type { Writable } from 'node:stream';
import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationPaths } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { App } from '../lib/app.ts';
import { createCloudApp } from '../lib/cloud/composition.ts';
import { internalErrorFallback } from '../lib/cloud/lambda-edge.ts';
import {
  functionUrlHandler,
  type LambdaStreamingRuntime,
  streamifyHandler,
} from '../lib/http/stream-lambda.ts';
import { loadConfig } from '../lib/platform/config.ts';
import type { Logger } from '../lib/platform/logger.ts';
import { STATUS_STREAM_FUNCTION_MS } from '../lib/status/stream-service.ts';

/**
 * Function URL (RESPONSE_STREAM) -> the shared router, streamed. Not middy's own streamifyResponse:
 * it reads the global `awslambda` when built and on every request, so no other runtime could be
 * passed in; the middy chain runs inside the runtime's streamifyResponse instead.
 */
export function createStatusStreamHandler<S extends Writable>(deps: {
  app: Pick<App, 'router'>;
  powertools: PowertoolsLogger;
  logger: Logger;
  runtime: LambdaStreamingRuntime<S>;
}) {
  const chain = middy(functionUrlHandler(deps.app.router, deps.logger))
    .use(
      injectLambdaContext(deps.powertools, {
        correlationIdPath: correlationPaths.LAMBDA_FUNCTION_URL,
        resetKeys: true,
      }),
    )
    .use(httpErrorHandler(internalErrorFallback(deps.logger)));
  return streamifyHandler(deps.runtime, chain);
}

// Streams end before the function's timeout (infra/status-stream.ts); the client resumes with Last-Event-ID.
const cloud = createCloudApp(loadConfig('cloud'), {
  statusStream: { follow: 'poll', maxDurationMs: STATUS_STREAM_FUNCTION_MS },
});
export const handler = createStatusStreamHandler<awslambda.HttpResponseStream>({
  ...cloud,
  runtime: awslambda,
});
