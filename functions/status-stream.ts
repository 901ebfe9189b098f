import {
  createCloudApp,
  createFunctionTracer,
  createStreamingUrlHandler,
} from '../lib/cloud/http-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';
import { STATUS_STREAM_FUNCTION_MS } from '../lib/status/stream-service.ts';

/** The status-stream function: GET /v1/status/stream behind its function URL, streamed. */
export const createStatusStreamHandler = createStreamingUrlHandler;

// Streams end before the function's timeout (infra/status-stream.ts); the client resumes with Last-Event-ID.
const tracer = createFunctionTracer('status-stream');
const cloud = createCloudApp(
  loadConfig('cloud'),
  { statusStream: { follow: 'poll', maxDurationMs: STATUS_STREAM_FUNCTION_MS } },
  // No route of this function sends email; its role has no ses:SendEmail (infra/vigil-stack.ts).
  { tracer, sendsEmail: false },
);
export const handler = createStatusStreamHandler<awslambda.HttpResponseStream>({
  ...cloud,
  runtime: awslambda,
  tracer,
});
