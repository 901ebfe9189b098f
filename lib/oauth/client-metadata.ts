import * as z from 'zod';
import { type EgressSettings, httpRequest } from '../egress/egress.ts';
import { undiciRequest } from '../egress/undici-client.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { redirectUrisSchema } from './redirect-uris.ts';

/** A client as the authorize and token endpoints know it: registered (`ocl_…`) or described by its metadata document. */
export interface ClientInfo {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
}

/** How long a fetched metadata document is reused, and how many are kept (per process). */
const CLIENT_METADATA_TTL_MS = 5 * 60_000;
const MAX_CACHED = 500;
/** A metadata document is small (the MCP spec suggests servers cap it at 5 KiB). */
const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5000;

/** Whether a client_id is a Client ID Metadata Document URL: https with a path (draft-ietf-oauth-client-id-metadata-document). */
export function isMetadataUrl(clientId: string): boolean {
  if (clientId.length > 2000 || !URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  return url.protocol === 'https:' && url.pathname !== '/' && url.hash === '' && url.username === '';
}

const documentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().max(200).optional(),
  redirect_uris: redirectUrisSchema,
  token_endpoint_auth_method: z.literal('none').optional(),
});

export interface ClientMetadataDeps {
  clock: Clock;
  logger: Logger;
  /** VIGIL_EGRESS_ALLOW: ranges exempt from the SSRF guard's private-address denial. */
  egressAllow: readonly string[];
  egress?: EgressSettings | undefined;
}

/**
 * Client ID Metadata Documents: the client_id is an https URL whose JSON names the client and
 * its redirect URIs. Fetched through the SSRF guard (private, loopback and metadata addresses
 * refused unless VIGIL_EGRESS_ALLOW lists them; no redirects; 5 KiB; 5 s), accepted only when
 * its own client_id is that URL, and kept for CLIENT_METADATA_TTL_MS per process.
 */
export function createClientMetadataFetcher(deps: ClientMetadataDeps) {
  const cache = new Map<string, { client: ClientInfo; fetchedAt: number }>();
  return async function fetchClientMetadata(url: string): Promise<ClientInfo | undefined> {
    const now = deps.clock.now();
    const hit = cache.get(url);
    if (hit && now - hit.fetchedAt < CLIENT_METADATA_TTL_MS && now >= hit.fetchedAt) return hit.client;
    let text: string;
    try {
      const res = await httpRequest({
        url,
        headers: { accept: 'application/json' },
        timeoutMs: FETCH_TIMEOUT_MS,
        maxRedirects: 0,
        maxBodyBytes: MAX_DOCUMENT_BYTES + 1,
        allowPrivate: false,
        allow: deps.egressAllow,
        ...(deps.egress?.resolve ? { resolve: deps.egress.resolve } : {}),
        ...(deps.egress?.ca ? { ca: deps.egress.ca } : {}),
        transport: deps.egress?.transport ?? undiciRequest,
      });
      if (res.status !== 200 || res.bodyPrefix.length > MAX_DOCUMENT_BYTES) {
        deps.logger.info('client metadata document refused', { url, status: res.status });
        return undefined;
      }
      text = res.bodyPrefix.toString('utf8');
    } catch (err) {
      deps.logger.info('client metadata document not fetched', { url, err });
      return undefined;
    }
    let parsed: z.infer<typeof documentSchema>;
    try {
      const result = documentSchema.safeParse(JSON.parse(text));
      if (!result.success || result.data.client_id !== url) return undefined;
      parsed = result.data;
    } catch {
      return undefined;
    }
    const client = {
      client_id: url,
      client_name: parsed.client_name ?? new URL(url).host,
      redirect_uris: parsed.redirect_uris,
    };
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? '');
    cache.set(url, { client, fetchedAt: now });
    return client;
  };
}
