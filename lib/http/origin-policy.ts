import { originOf } from '../domain/url-origin.ts';

/**
 * Which web pages may call the API from a browser. MCP (2025-11-25) requires a server to refuse a
 * request with an invalid Origin (403), against DNS rebinding and cross-site pages. Vigil's rule,
 * the same in both runtimes: a request without an Origin (an MCP client, curl, a server) passes;
 * a browser's passes only from the console's own origin. The console and the API share an origin
 * (the local server serves both; in the cloud the console's CloudFront distribution fronts both),
 * so that origin is the request's own: its scheme and Host, where behind the console's edge the
 * Host is the viewer's (lib/http/edge-address.ts). VIGIL_PUBLIC_URL's origin passes too (a proxy
 * in front that rewrites Host, a custom domain).
 */

const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A Host header value: a DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
export function isHostValue(value: string): boolean {
  return HOST.test(value);
}

/** The origin the request was sent to: the edge's scheme (`X-Forwarded-Proto`) or http, and its Host. */
export function requestOrigin(headers: Record<string, string>): string | undefined {
  const host = headers.host;
  if (host === undefined || !isHostValue(host)) return undefined;
  const scheme = headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  return originOf(`${scheme}://${host}`);
}

/** Whether the request's Origin (if any) may call the API: none, the request's own origin, or VIGIL_PUBLIC_URL's. */
export function isAllowedOrigin(headers: Record<string, string>, publicUrl: string | undefined): boolean {
  const sent = headers.origin;
  if (sent === undefined) return true;
  // "null" (a sandboxed frame, a file: page) and anything that is no http(s) origin never match.
  const origin = originOf(sent);
  if (origin === undefined) return false;
  return origin === requestOrigin(headers) || (publicUrl !== undefined && origin === originOf(publicUrl));
}
