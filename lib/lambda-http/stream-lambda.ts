import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context, LambdaFunctionURLEvent } from 'aws-lambda';
import { errorResponse } from '../http/requests.ts';
import type { HttpRequest, HttpResponse } from '../http/types.ts';
import type { Logger } from '../platform/logger.ts';
import type { EdgeTrust } from './edge-address.ts';
import { fromApiGatewayEvent } from './lambda-adapter.ts';

/**
 * A Lambda function URL in RESPONSE_STREAM mode: the router's answer is written to the response
 * stream as it comes, head first. Function URL events use the API Gateway payload v2 format.
 */

/** A handler as the Lambda runtime calls it in RESPONSE_STREAM mode. */
type StreamingLambdaHandler<S extends Writable = Writable> = (
  event: LambdaFunctionURLEvent,
  responseStream: S,
  context: Context,
) => Promise<void>;

/** What response streaming uses of the Lambda Node runtime's global `awslambda` (tests pass a fake). */
export interface LambdaStreamingRuntime<S extends Writable = Writable> {
  streamifyResponse(
    handler: StreamingLambdaHandler<S>,
  ): (event: LambdaFunctionURLEvent, responseStream: S, context: Context) => void | Promise<void>;
  HttpResponseStream: {
    from(responseStream: S, prelude: { statusCode: number; headers: Record<string, string> }): Writable;
  };
}

/** The answer before it is streamed, in middy's response shape (http-error-handler answers in it too). */
export interface StreamingResult {
  statusCode: number;
  headers?: Record<string, string | number | boolean>;
  body?: string | ReadableStream<Uint8Array>;
}

/**
 * Function URL event -> the shared router -> a result whose body may be a stream. A throw in the
 * translation itself (a malformed event) is answered like any unknown error: a logged generic 500.
 */
export function functionUrlHandler(
  router: { handle(req: HttpRequest): Promise<HttpResponse> },
  logger: Logger,
  trust?: EdgeTrust,
) {
  return async (event: LambdaFunctionURLEvent): Promise<StreamingResult> => {
    let response: HttpResponse;
    try {
      response = await router.handle(fromApiGatewayEvent(event, trust));
    } catch (err) {
      response = errorResponse(err, logger);
    }
    return { statusCode: response.status, headers: response.headers, body: response.stream ?? response.body };
  };
}

function bodyStream(body: StreamingResult['body']): Readable {
  if (body === undefined || typeof body === 'string') return Readable.from(body ? [Buffer.from(body)] : []);
  return Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
}

/**
 * Wraps `handler` (a middy chain answering a StreamingResult) for RESPONSE_STREAM: the status and
 * headers go first as the prelude, then the body as it comes. When the client goes away the
 * response stream fails, and the pipeline cancels the body (the route stops producing).
 */
export function streamifyHandler<S extends Writable>(
  runtime: LambdaStreamingRuntime<S>,
  handler: (event: LambdaFunctionURLEvent, context: Context) => Promise<StreamingResult>,
) {
  return runtime.streamifyResponse(async (event, responseStream, context) => {
    const result = await handler(event, context);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
    const out = runtime.HttpResponseStream.from(responseStream, { statusCode: result.statusCode, headers });
    const body = bodyStream(result.body);
    try {
      await pipeline(body, out);
    } finally {
      // Node 24's pipeline refuses an already destroyed response stream (ERR_STREAM_UNABLE_TO_PIPE)
      // without destroying the body: destroy it here, so a web stream body is cancelled.
      body.destroy();
    }
  });
}
