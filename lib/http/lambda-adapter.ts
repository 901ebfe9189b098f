import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { HttpRequest, HttpResponse } from './types.ts';

/** API Gateway HTTP API (payload v2) event -> runtime-neutral request. */
export function fromApiGatewayEvent(event: APIGatewayProxyEventV2): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(event.rawQueryString ?? '')) {
    if (!(name in query)) query[name] = value;
  }
  const body = event.body
    ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  return {
    method: event.requestContext.http.method.toUpperCase(),
    path: event.rawPath,
    query,
    headers,
    body,
    requestId: event.requestContext.requestId,
  };
}

/** Runtime-neutral response -> API Gateway HTTP API result. */
export function toApiGatewayResult(response: HttpResponse): APIGatewayProxyStructuredResultV2 {
  return { statusCode: response.status, headers: response.headers, body: response.body };
}

/** The api Lambda handler around the shared router. */
export function createApiHandler(router: { handle(req: HttpRequest): Promise<HttpResponse> }) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(async (event) =>
    toApiGatewayResult(await router.handle(fromApiGatewayEvent(event))),
  );
}
