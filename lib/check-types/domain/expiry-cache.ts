/**
 * Expiry dates RDAP answered, per server and domain, for an hour: several checks of one domain,
 * or a run retried, ask the registry once (RDAP servers rate-limit). Per process (a probe thread,
 * a warm Lambda): a cold one asks again, which the hourly minimum interval keeps rare.
 */
const TTL_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 10_000;
const cache = new Map<string, { expiry: number; at: number }>();

export function cachedExpiry(server: string, domain: string, now: number): number | undefined {
  const key = `${server} ${domain}`;
  const hit = cache.get(key);
  if (!hit) return undefined;
  if (now - hit.at >= TTL_MS || now < hit.at) {
    cache.delete(key);
    return undefined;
  }
  return hit.expiry;
}

export function rememberExpiry(server: string, domain: string, expiry: number, now: number): void {
  // Oldest first out: a Map iterates in insertion order.
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value ?? '');
  cache.set(`${server} ${domain}`, { expiry, at: now });
}
