import type { Writable } from 'node:stream';
import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationPaths } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { App } from '../lib/app.ts';
import { createCloudApp, MCP_SSE_FUNCTION_MS } from '../lib/cloud/composition.ts';
import { internalErrorFallback } from '../lib/cloud/lambda-edge.ts';
import {
  functionUrlHandler,
  type LambdaStreamingRuntime,
  streamifyHandler,
} from '../lib/http/stream-lambda.ts';
import { loadConfig } from '../lib/platform/config.ts';
import type { Logger } from '../lib/platform/logger.ts';

/**
 * Function URL (RESPONSE_STREAM) -> the shared router, streamed: /v1/mcp's Streamable HTTP POSTs,
 * the legacy SSE stream (GET) and its message POSTs, which land on other invocations than the one
 * holding the stream and meet it through the table relay. The Bearer key is checked by the routes.
 */
export function createMcpHandler<S extends Writable>(deps: {
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

// A legacy SSE stream ends before the function's timeout (infra/mcp.ts); the client reconnects.
const cloud = createCloudApp(loadConfig('cloud'), { mcpSse: { maxDurationMs: MCP_SSE_FUNCTION_MS } });
export const handler = createMcpHandler<awslambda.HttpResponseStream>({ ...cloud, runtime: awslambda });
