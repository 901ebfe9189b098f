import {
  createCloudApp,
  createFunctionTracer,
  createStreamingUrlHandler,
  MCP_SSE_FUNCTION_MS,
} from '../lib/cloud/http-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/**
 * The MCP function: /v1/mcp's Streamable HTTP POSTs, the legacy SSE stream (GET) and its message
 * POSTs, which land on other invocations than the one holding the stream and meet it through the
 * table relay. The Bearer key is checked by the routes.
 */
export const createMcpHandler = createStreamingUrlHandler;

// A legacy SSE stream ends before the function's timeout (infra/mcp.ts); the client reconnects.
const tracer = createFunctionTracer('mcp');
const cloud = createCloudApp(
  loadConfig('cloud'),
  { mcpSse: { maxDurationMs: MCP_SSE_FUNCTION_MS } },
  // No route of this function sends email; its role has no ses:SendEmail (infra/vigil-stack.ts).
  { tracer, sendsEmail: false },
);
export const handler = createMcpHandler<awslambda.HttpResponseStream>({
  ...cloud,
  runtime: awslambda,
  tracer,
});
