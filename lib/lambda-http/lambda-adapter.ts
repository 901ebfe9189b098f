import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { splitSetCookies } from '../http/policies.ts';
import { errorResponse } from '../http/requests.ts';
import { readStream } from '../http/router.ts';
import type { HttpRequest, HttpResponse } from '../http/types.ts';
import type { Logger } from '../platform/logger.ts';
import { clientAddress, type EdgeTrust } from './edge-address.ts';
import { requireEdge } from './edge-only.ts';

/**
 * API Gateway HTTP API (payload v2) event -> runtime-neutral request. Behind the console's
 * CloudFront edge, `trust` decides whether the viewer's address replaces the edge's (edge-address.ts).
 * Throws NotFoundError for an edge-only path (/p/*) that did not come through that edge (edge-only.ts).
 */
export function fromApiGatewayEvent(event: APIGatewayProxyEventV2, trust?: EdgeTrust): HttpRequest {
  const received: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) received[name.toLowerCase()] = value;
  }
  // Payload v2 hands the Cookie header over split, in `cookies`, and leaves it out of `headers`.
  if (event.cookies && event.cookies.length > 0) received.cookie = event.cookies.join('; ');
  const { headers, sourceIp, fromEdge, viewerHost } = clientAddress(
    received,
    event.requestContext.http.sourceIp,
    trust,
  );
  // /p/* only through CloudFront when it is configured (edge-only.ts): a 404 from both callers' catch.
  requireEdge(event.rawPath, fromEdge, trust);
  // The name API Gateway or the function URL routed the request by (the console edge's viewer
  // Host when proven): the Host policy's platform host (lib/http/origin-policy.ts).
  const platformHost = viewerHost ?? event.requestContext.domainName;
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
    ...(sourceIp !== undefined ? { sourceIp } : {}),
    ...(platformHost ? { platformHost } : {}),
  };
}

/**
 * The headers of a result, with `Set-Cookie` in payload v2's `cookies` (API Gateway sends each
 * entry as its own Set-Cookie header).
 */
function resultHeaders(
  response: HttpResponse,
): Pick<APIGatewayProxyStructuredResultV2, 'headers' | 'cookies'> {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(response.headers)) {
    if (name.toLowerCase() === 'set-cookie') cookies.push(...splitSetCookies(value));
    else headers[name] = value;
  }
  return cookies.length === 0 ? { headers } : { headers, cookies };
}

/** Runtime-neutral response -> API Gateway HTTP API result. */
export function toApiGatewayResult(response: HttpResponse): APIGatewayProxyStructuredResultV2 {
  return { statusCode: response.status, ...resultHeaders(response), body: response.body };
}

/** Text bodies go as they are; anything else base64, as API Gateway requires for binary. */
const TEXT_TYPE = /^(text\/|image\/svg\+xml|application\/(json|xml|yaml|x-ndjson|[a-z.+-]+\+(json|xml)))/i;

/**
 * A streamed response as an API Gateway result: API Gateway cannot stream, so the body is read
 * to its end first (an event stream arrives all at once, when the route ends it).
 */
async function bufferedApiGatewayResult(
  response: HttpResponse,
  stream: ReadableStream<Uint8Array>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const body = await readStream(stream);
  const text = TEXT_TYPE.test(response.headers['content-type'] ?? '');
  return {
    statusCode: response.status,
    ...resultHeaders(response),
    body: body.toString(text ? 'utf8' : 'base64'),
    isBase64Encoded: !text,
  };
}

/**
 * The api Lambda's handler (functions/api.ts wraps it in middy): the shared router behind the
 * API Gateway translation. A throw in the translation itself (a malformed event) is answered
 * like any unknown error: a logged 500 with the generic body.
 */
export function apiGatewayHandler(
  router: { handle(req: HttpRequest): Promise<HttpResponse> },
  logger: Logger,
  trust?: EdgeTrust,
) {
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    try {
      const response = await router.handle(fromApiGatewayEvent(event, trust));
      if (response.stream) return await bufferedApiGatewayResult(response, response.stream);
      return toApiGatewayResult(response);
    } catch (err) {
      return toApiGatewayResult(errorResponse(err, logger));
    }
  };
}
