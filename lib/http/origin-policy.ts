import { hostnameOf, isHostValue, originOf } from '../domain/formats.ts';

/**
 * Which web pages may call the API from a browser, and under which host names the server answers
 * its browser-facing surfaces (the MCP endpoint, the console). MCP (2025-11-25) requires a server
 * to refuse a request with an invalid Origin (403), against DNS rebinding and cross-site pages.
 * Vigil's rule, the same in both runtimes: a request without an Origin (an MCP client, curl, a
 * server) passes; a browser's passes only from the console's own origin. The console and the API
 * share an origin (the local server serves both; in the cloud the console's CloudFront
 * distribution fronts both), so that origin is the request's own: its scheme and Host, where
 * behind the console's edge the Host is the viewer's (lib/lambda-http/edge-address.ts). VIGIL_PUBLIC_URL's
 * origin passes too (a proxy in front that rewrites Host, a custom domain).
 *
 * The own origin is only as good as its Host: a DNS-rebinding page (evil.example resolved to
 * 127.0.0.1) sends `Host: evil.example` and `Origin: http://evil.example`, its own origin. So the
 * Host must also be one the server is known by (HostPolicy): a loopback name, VIGIL_HOST when it
 * is a specific address, VIGIL_PUBLIC_URL's host, VIGIL_ALLOWED_HOSTS, or the name the platform
 * itself routed the request by (API Gateway's or the function URL's domain, the console edge's
 * viewer Host proven by its secret: CloudFront forwards only its distribution's own names).
 */

export { isHostValue };

/** The loopback names a browser on this machine uses, on any port. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** The host names the server answers its browser-facing routes under, and VIGIL_PUBLIC_URL. */
export interface HostPolicy {
  /** Host names (no port: any port passes), lower case, IPv6 in brackets. */
  readonly hosts: ReadonlySet<string>;
  readonly publicUrl: string | undefined;
  /** VIGIL_PING_URL's origin: where ping URLs are shown, when pings have an ingress of their own. */
  readonly pingUrl?: string | undefined;
}

/** The policy of a configuration: loopback, VIGIL_HOST (unless a wildcard), VIGIL_PUBLIC_URL's host, VIGIL_ALLOWED_HOSTS. */
export function hostPolicyOf(config: {
  publicUrl: string | undefined;
  allowedHosts: readonly string[];
  host?: string | undefined;
  pingUrl?: string | undefined;
}): HostPolicy {
  const hosts = new Set<string>(LOOPBACK_HOSTS);
  const bound = config.host?.includes(':') ? `[${config.host}]` : config.host;
  const names = [...config.allowedHosts, ...(bound ? [bound] : [])];
  if (config.publicUrl !== undefined && URL.canParse(config.publicUrl))
    names.push(new URL(config.publicUrl).host);
  for (const name of names) {
    const hostname = hostnameOf(name);
    // A wildcard bind address names no host a browser would send.
    if (hostname !== undefined && hostname !== '0.0.0.0' && hostname !== '[::]') hosts.add(hostname);
  }
  return { hosts, publicUrl: config.publicUrl, pingUrl: config.pingUrl };
}

/**
 * Whether the request's Host is one the server is known by: on the policy's list, or the name
 * the platform routed the request by (`platformHost`, cloud only). No Host at all never passes.
 */
export function isAllowedHost(
  headers: Record<string, string>,
  policy: HostPolicy,
  platformHost?: string,
): boolean {
  // API Gateway always sends Host; an event without one was routed by the platform's name.
  const host = headers.host ?? platformHost;
  const hostname = host === undefined ? undefined : hostnameOf(host);
  if (hostname === undefined) return false;
  if (policy.hosts.has(hostname)) return true;
  return platformHost !== undefined && hostnameOf(platformHost) === hostname;
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

/**
 * Why a browser-facing request is refused, or undefined when it passes: its Host is not one the
 * server is known by, or its Origin is another page's (the own origin counts only with an allowed Host).
 */
export function browserRefusal(
  headers: Record<string, string>,
  policy: HostPolicy,
  platformHost?: string,
): 'host' | 'origin' | undefined {
  if (!isAllowedHost(headers, policy, platformHost)) return 'host';
  if (!isAllowedOrigin(headers, policy.publicUrl)) return 'origin';
  return undefined;
}
