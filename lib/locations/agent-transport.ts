import { addressClass } from '../egress/ip-rules.ts';
import { ForbiddenError } from '../platform/errors.ts';

/**
 * Where leased jobs may go. Jobs carry their checks' secrets (headers, URL credentials, gRPC
 * metadata), so they leave only over TLS or to this machine: the cloud is always https (API
 * Gateway and function URLs speak nothing else); the local server speaks plain HTTP, so there a
 * lease is answered to a loopback peer (the agent on the same host, or a TLS proxy in front of
 * Vigil on it), to a request a TLS proxy marked `X-Forwarded-Proto: https`, or to anyone when
 * VIGIL_AGENT_ALLOW_HTTP says the network between is trusted (tests, a lab). The header is only a
 * guard against an agent misconfigured to plain http (`--allow-http`), which never sends it: a key
 * holder who wants the secrets can lease over TLS anyway.
 */
export interface AgentTransport {
  /** The runtime's own front speaks only TLS (the cloud). */
  alwaysTls: boolean;
  /** VIGIL_AGENT_ALLOW_HTTP: plain HTTP from any address is fine. */
  allowHttp: boolean;
}

/** Throws 403 FORBIDDEN when a lease came over plain HTTP from another machine. */
export function requireSafeTransport(
  transport: AgentTransport,
  request: { sourceIp?: string | undefined; headers: Record<string, string> },
): void {
  if (transport.alwaysTls || transport.allowHttp) return;
  const { sourceIp } = request;
  if (sourceIp !== undefined && addressClass(sourceIp) === 'loopback') return;
  const proto = request.headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  if (proto === 'https') return;
  throw new ForbiddenError(
    `leased jobs carry check secrets and go only over TLS or to this host, and this lease came over plain HTTP from ${sourceIp ?? 'another host'}: reach Vigil over https (a TLS proxy in front of it, which sets X-Forwarded-Proto: https), or set VIGIL_AGENT_ALLOW_HTTP=true on the server if the network in between is trusted`,
  );
}
