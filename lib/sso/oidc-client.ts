import * as client from 'openid-client';
import type { EgressSettings } from '../egress/egress.ts';
import { httpRequest } from '../egress/egress.ts';
import { undiciRequest } from '../egress/undici-client.ts';
import type { Clock } from '../platform/clock.ts';
import { isLoopbackHost } from './issuer-url.ts';

/** How the provider is reached: through the SSRF guard, as channels reach theirs. */
export interface OidcEgress {
  allowPrivate: boolean;
  allow: readonly string[];
  egress?: EgressSettings | undefined;
}

/** What identifies one provider client: discovery documents are cached per issuer and client. */
export interface OidcClientSettings {
  issuer: string;
  client_id: string;
  client_secret: string;
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 512 * 1024;

/**
 * openid-client's fetch, sent through lib/egress/egress.ts: every host is resolved and checked
 * by the SSRF guard, no redirect is followed (discovery, JWKS and token endpoints answer
 * directly), bodies are bounded.
 */
function guardedFetch(options: OidcEgress): client.CustomFetch {
  return async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = typeof init.body === 'string' ? init.body : init.body ? String(init.body) : undefined;
    const res = await httpRequest({
      url,
      method: init.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxRedirects: 0,
      maxBodyBytes: MAX_BODY_BYTES,
      allowPrivate: options.allowPrivate,
      allow: options.allow,
      ...(options.egress?.resolve ? { resolve: options.egress.resolve } : {}),
      ...(options.egress?.ca ? { ca: options.egress.ca } : {}),
      transport: options.egress?.transport ?? undiciRequest,
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) out.append(name, v);
      else if (value !== undefined) out.set(name, value);
    }
    const nullBody = res.status === 204 || res.status === 304;
    return new Response(nullBody ? null : new Uint8Array(res.bodyPrefix), {
      status: res.status,
      headers: out,
    });
  };
}

/** Discovers providers (cached for 10 minutes per issuer, client and secret) and gives their configurations. */
export function createOidcClients(deps: { egress: OidcEgress; clock: Clock }) {
  const cache = new Map<string, { config: client.Configuration; until: number }>();
  const fetch = guardedFetch(deps.egress);
  return {
    async configuration(settings: OidcClientSettings): Promise<client.Configuration> {
      const cacheKey = JSON.stringify([settings.issuer, settings.client_id, settings.client_secret]);
      const now = deps.clock.now();
      const hit = cache.get(cacheKey);
      if (hit && hit.until > now) return hit.config;
      const issuer = new URL(settings.issuer);
      // Plain http only to a loopback issuer where private targets are allowed (tests, a local IdP).
      const insecure =
        issuer.protocol === 'http:' && deps.egress.allowPrivate && isLoopbackHost(issuer.hostname);
      const config = await client.discovery(
        issuer,
        settings.client_id,
        undefined,
        client.ClientSecretPost(settings.client_secret),
        {
          [client.customFetch]: fetch,
          ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
          timeout: REQUEST_TIMEOUT_MS / 1000,
        },
      );
      config[client.customFetch] = fetch;
      if (cache.size > 100) cache.clear();
      cache.set(cacheKey, { config, until: now + DISCOVERY_TTL_MS });
      return config;
    },
  };
}

export type OidcClients = ReturnType<typeof createOidcClients>;
