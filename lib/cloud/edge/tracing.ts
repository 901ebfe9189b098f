import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { HttpRequest, HttpResponse } from '../../http/types.ts';

/**
 * Powertools Tracer (X-Ray) of one HTTP function (api, mcp, status-stream). It traces only in
 * Lambda with active tracing (AWS_EXECUTION_ENV set, POWERTOOLS_TRACE_ENABLED not `false`):
 * elsewhere every call is a no-op and no X-Ray daemon is needed. Only the HTTP functions load
 * it (test/architecture/lean-functions.test.ts).
 */
export function createFunctionTracer(service: string): Tracer {
  // The AWS clients are traced one by one (captureAWSv3Client); node's http and fetch are not
  // patched: the patch would wrap the SSRF-guarded clients and send X-Amzn-Trace-Id to tenants' endpoints.
  return new Tracer({ serviceName: service, captureHTTPsRequests: false });
}

/**
 * The middy middleware of the HTTP edges: a `## handler` subsegment per invocation with the
 * ColdStart and Service annotations, and an escaping error as metadata. Never the response as
 * metadata: API responses carry secrets (a created key, a channel's settings).
 */
export function traceInvocations(tracer: Tracer) {
  return captureLambdaHandler(tracer, { captureResponse: false });
}

type Router = { handle(req: HttpRequest): Promise<HttpResponse> };

/**
 * The router with each request's matched route (`GET /v1/checks/{id}`, `unmatched`), method and
 * status code annotated on the invocation's subsegment, so traces can be searched by them. A
 * streamed body is sent after the subsegment closes: it covers the route's answer, not the stream.
 */
export function tracedRouter(router: Router, tracer: Tracer): Router {
  return {
    async handle(req) {
      const response = await router.handle(req);
      tracer.putAnnotation('route', response.route ?? 'unmatched');
      tracer.putAnnotation('method', req.method);
      tracer.putAnnotation('status', response.status);
      return response;
    },
  };
}
