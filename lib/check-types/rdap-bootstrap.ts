import * as z from 'zod';
import type { RdapBootstrap } from '../probes/types.ts';
import shipped from './domain/rdap-bootstrap.json' with { type: 'json' };

/**
 * The IANA RDAP bootstrap for domain names (RFC 9224, https://data.iana.org/rdap/dns.json): which
 * RDAP servers answer for which top-level domains. A copy ships in ./domain/rdap-bootstrap.json (imported,
 * so the cloud's bundles carry it) and `npm run rdap:bootstrap` refreshes it (bin/rdap-bootstrap.ts).
 */
export const rdapBootstrapSchema = z.object({
  description: z.string().optional(),
  publication: z.string().optional(),
  version: z.string().optional(),
  /** Each service: [its labels ("com", "co.uk"), its base URLs (ending in "/")]. */
  services: z.array(z.tuple([z.array(z.string()), z.array(z.string())]).rest(z.unknown())),
});

export type { RdapBootstrap } from '../probes/types.ts';

export const shippedBootstrap: RdapBootstrap = rdapBootstrapSchema.parse(shipped);

/**
 * The base URL of the RDAP server for `domain` (lowercase ASCII): the service whose entry is the
 * longest label suffix of the name (RFC 9224 section 4), its https URL first. Undefined: none.
 */
export function rdapServerFor(domain: string, bootstrap: RdapBootstrap): string | undefined {
  let best: { entry: string; urls: string[] } | undefined;
  for (const [entries, urls] of bootstrap.services) {
    for (const raw of entries) {
      const entry = raw.toLowerCase().replace(/\.$/, '');
      const matches = domain === entry || domain.endsWith(`.${entry}`);
      if (matches && (!best || entry.length > best.entry.length)) best = { entry, urls };
    }
  }
  if (!best) return undefined;
  const url = best.urls.find((u) => u.startsWith('https://')) ?? best.urls[0];
  if (url === undefined) return undefined;
  return url.endsWith('/') ? url : `${url}/`;
}
