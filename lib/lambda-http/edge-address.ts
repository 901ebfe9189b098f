import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { isHostValue } from '../http/origin-policy.ts';

/**
 * Behind the console's CloudFront distribution (infra/console.ts) the API sees the edge's address
 * as the source, shared by everyone that edge serves, and the origin's own host name as the Host.
 * CloudFront sends the viewer's own address in VIEWER_ADDRESS_HEADER and the Host the viewer asked
 * for in VIEWER_HOST_HEADER (both set by a viewer-request function, over anything the viewer sent)
 * and a secret in EDGE_SECRET_HEADER (an origin custom header). Only a request carrying the
 * configured secret is believed: anyone can send these headers straight to the API's own URLs.
 */

/** The origin custom header CloudFront adds to every /v1 origin request. */
export const EDGE_SECRET_HEADER = 'x-vigil-edge-secret';
/** The viewer's IP address (no port), written by the distribution's viewer-request function. */
export const VIEWER_ADDRESS_HEADER = 'x-vigil-viewer-address';
/** The Host the viewer sent (the console's domain), written by the same function: the Origin policy's own origin. */
export const VIEWER_HOST_HEADER = 'x-vigil-viewer-host';

/** What the Lambda adapters need to know about the edge in front of them. */
export interface EdgeTrust {
  /** VIGIL_EDGE_SECRET; undefined: the edge's headers are never believed. */
  edgeSecret: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison (of digests, so that a wrong length takes the same time too). */
function sameSecret(sent: string, expected: string): boolean {
  return timingSafeEqual(digest(sent), digest(expected));
}

/** A bare IPv4 or IPv6 address, or undefined for anything else (a port, brackets, a zone, a list). */
export function parseViewerAddress(value: string | undefined): string | undefined {
  const address = value?.trim();
  return address && !address.includes('%') && isIP(address) !== 0 ? address : undefined;
}

/**
 * The request's client address and its headers without the edge's three: with the matching
 * secret, the viewer's address (when well formed) replaces the connection's own `sourceIp`, and
 * the viewer's Host (when well formed) replaces the origin's (and is returned as `viewerHost`: a
 * name CloudFront routed to this distribution, so one the Host policy knows). The edge's headers go
 * in every case, so neither the secret nor a forged value reaches a route or a log. `fromEdge`: the
 * secret matched.
 */
export function clientAddress(
  headers: Record<string, string>,
  sourceIp: string | undefined,
  trust: EdgeTrust | undefined,
): { headers: Record<string, string>; sourceIp: string | undefined; fromEdge: boolean; viewerHost?: string } {
  // Most requests carry none of them: no copy of the headers for them.
  if (
    !(EDGE_SECRET_HEADER in headers) &&
    !(VIEWER_ADDRESS_HEADER in headers) &&
    !(VIEWER_HOST_HEADER in headers)
  )
    return { headers, sourceIp, fromEdge: false };
  const {
    [EDGE_SECRET_HEADER]: secret,
    [VIEWER_ADDRESS_HEADER]: viewer,
    [VIEWER_HOST_HEADER]: viewerHost,
    ...rest
  } = headers;
  const expected = trust?.edgeSecret;
  const trusted = expected !== undefined && secret !== undefined && sameSecret(secret, expected);
  const address = trusted ? parseViewerAddress(viewer) : undefined;
  const host = trusted && viewerHost !== undefined && isHostValue(viewerHost) ? viewerHost : undefined;
  if (!host) return { headers: rest, sourceIp: address ?? sourceIp, fromEdge: trusted };
  return { headers: { ...rest, host }, sourceIp: address ?? sourceIp, fromEdge: trusted, viewerHost: host };
}
