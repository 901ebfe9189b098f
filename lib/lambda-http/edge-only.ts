import { NotFoundError } from '../platform/errors.ts';
import type { EdgeTrust } from './edge-address.ts';

/**
 * Paths the cloud answers only through the console's CloudFront distribution: the public status
 * pages (/p/*), keyless and cached 30 s at the edge. Straight to the API's own URLs (the HTTP API's
 * default endpoint, a function URL) anyone could skip that cache and make every request reach a
 * function; with an edge secret configured (VIGIL_EDGE_SECRET, which the stack always sets), a
 * request without it is answered as if the route did not exist. The local runtime has no edge and
 * serves them itself.
 */
const EDGE_ONLY = /^\/p(\/|$)/;

/** Throws NotFoundError for an edge-only path that did not come through the edge (`fromEdge`). */
export function requireEdge(path: string, fromEdge: boolean, trust: EdgeTrust | undefined): void {
  if (trust?.edgeSecret !== undefined && !fromEdge && EDGE_ONLY.test(path)) throw new NotFoundError('route');
}
