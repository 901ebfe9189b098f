import { type EgressSettings, httpRequest } from '../../egress/egress.ts';
import { undiciRequest } from '../../egress/undici-client.ts';
import type { Clock } from '../../platform/clock.ts';

/**
 * SNS's two outbound calls (kinds/cloudwatch.ts): its signing certificate, and the visit that
 * confirms a subscription. Both go through the SSRF guard (private and metadata addresses refused
 * unless VIGIL_EGRESS_ALLOW lists them), over HTTPS only to `sns.<region>.amazonaws.com` (the
 * reader checks the URL before either is made), without redirects, bounded in time and size. A
 * certificate is kept per process for an hour (SNS signs with few, and a request may carry 1).
 */

const TIMEOUT_MS = 5_000;
const MAX_CERTIFICATE_BYTES = 16 * 1024;
const CACHE_MS = 60 * 60 * 1000;
const CACHE_ENTRIES = 20;

export interface SnsEgressDeps {
  clock: Clock;
  /** VIGIL_EGRESS_ALLOW: ranges exempt from the SSRF guard's private-address denial. */
  egressAllow: readonly string[];
  egress?: EgressSettings | undefined;
}

export function createSnsEgress(deps: SnsEgressDeps) {
  const cache = new Map<string, { pem: string; at: number }>();
  const get = (url: string, maxBodyBytes: number) =>
    httpRequest({
      url,
      timeoutMs: TIMEOUT_MS,
      maxRedirects: 0,
      maxBodyBytes,
      allowPrivate: false,
      allow: deps.egressAllow,
      ...(deps.egress?.resolve ? { resolve: deps.egress.resolve } : {}),
      ...(deps.egress?.ca ? { ca: deps.egress.ca } : {}),
      transport: deps.egress?.transport ?? undiciRequest,
    });
  return {
    async fetchCertificate(url: string): Promise<string> {
      const now = deps.clock.now();
      const hit = cache.get(url);
      if (hit && now - hit.at < CACHE_MS && now >= hit.at) return hit.pem;
      let pem: string;
      try {
        const res = await get(url, MAX_CERTIFICATE_BYTES + 1);
        if (res.status !== 200 || res.bodyPrefix.length > MAX_CERTIFICATE_BYTES)
          throw new Error(`answered ${res.status}`);
        pem = res.bodyPrefix.toString('utf8');
      } catch (err) {
        // Not the sender's fault: a 5xx, which SNS retries.
        throw new Error(
          `the SNS signing certificate could not be fetched: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value ?? '');
      cache.set(url, { pem, at: now });
      return pem;
    },

    async confirmSubscription(url: string): Promise<void> {
      const res = await get(url, 4096);
      if (res.status !== 200)
        throw new Error(`SNS answered ${res.status} to the subscription's confirmation`);
    },
  };
}
