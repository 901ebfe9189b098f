import type { HttpResponse, RouteContext } from '../types.ts';

/**
 * The bridge between the router's runtime-neutral shapes and web-standard Request / Response, for
 * routes that hand a request to code written against the Fetch API (an SSE stream, the MCP SDK's
 * Streamable HTTP transport) and answer with whatever Response it gives back.
 */

/** The request a route is handling, as a web-standard Request (built only when a route asks). */
export function webRequest(ctx: RouteContext): Request {
  // Behind API Gateway or a function URL the edge says https; the local server is plain http.
  const scheme = ctx.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  const url = new URL(ctx.path, `${scheme}://${ctx.headers.host ?? 'localhost'}`);
  for (const [name, value] of Object.entries(ctx.query)) url.searchParams.set(name, value);
  const hasBody = ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.rawBody.length > 0;
  return new Request(url, {
    method: ctx.method,
    headers: ctx.headers,
    ...(hasBody ? { body: ctx.rawBody } : {}),
  });
}

/** A web-standard Response as the transports' response: its body becomes the stream they write. */
export function fromWebResponse(response: Response): HttpResponse {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.body === null) return { status: response.status, headers, body: '' };
  return { status: response.status, headers, body: '', stream: response.body };
}

/** Reads a stream to its end (API Gateway cannot stream: it answers with the whole body). */
export async function readStream(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
