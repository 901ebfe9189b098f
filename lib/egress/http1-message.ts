import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { CancelSignal } from './egress-deadline.ts';

/** The request and response of the HTTP/1.1 client (http1-client.ts), apart so its head and reader read them without a circle. */

/** One request. */
export interface Http1Request {
  /** http: or https:; userinfo becomes basic auth unless `headers` has an Authorization. */
  url: URL;
  /** Sent as given (callers upper-case it). */
  method: string;
  /** Sent as given, except Content-Length and Transfer-Encoding: the framing is the client's. */
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Resolves host names on connect (the SSRF guard's lookup); IP literals never reach it. */
  lookup?: LookupFunction;
  /** Trusted CA certificates for https; Node's bundled ones when undefined. */
  ca?: string[];
  /** false: any certificate is accepted, unverified (a check's tls.skip_verify). */
  rejectUnauthorized?: boolean;
  /** Aborting destroys the connection and rejects with the signal's reason. */
  signal?: CancelSignal;
  /** Body bytes kept (reading stops there), or a choice per status; 0 stops right after the head. */
  maxBodyBytes: number | ((status: number) => number);
  /** Filled with this hop's phase marks when given (multistep checks report them); the http1 client fills it. */
  timings?: HopTimings;
}

/**
 * When a hop's phases ended (performance.now() marks); a phase that did not happen (no lookup for
 * an IP literal, no TLS for http:) stays absent.
 */
export interface HopTimings {
  start?: number;
  lookup?: number;
  connect?: number;
  secure?: number;
  firstByte?: number;
}

/** The final response (interim 1xx responses are skipped). */
export interface Http1Response {
  status: number;
  /** Lower-case names, duplicates combined as node:http combines them. */
  headers: IncomingHttpHeaders;
  /** At most `maxBodyBytes` of the decoded body. */
  bodyPrefix: Buffer;
}
