import { hostnameOf } from '../../domain/formats.ts';

/**
 * Where a page's links point for one request. On a custom domain (a Host on the deployment's list,
 * VIGIL_PAGE_DOMAINS: every request under it is a page's, ../public/domain-requests.ts) the page is `/` and
 * its routes sit at the root; on Vigil's own host they are under /p/{slug}. Absolute links (feeds,
 * e-mails) on a domain are https: the operator serves it with a certificate (CloudFront's, or a
 * proxy's in front of the local runtime).
 */
export interface PageLinks {
  /** The prefix of the page's routes: '' on its custom domain, else /p/{slug}. */
  base: string;
  /** The page itself: '/' on its domain, else /p/{slug}. */
  home: string;
  /** The custom domain the request came in on; undefined on Vigil's own host. */
  domain: string | undefined;
}

/** The links of a page under `base`. */
export const linksAt = (base: string, domain?: string): PageLinks => ({
  base,
  home: base === '' ? '/' : base,
  domain,
});

/** The deployment's page domains, and where a request's links go by its Host. */
export function createPageHosts(pageDomains: readonly string[]) {
  const domains = new Set(pageDomains);
  /** The page domain the request came in on (its Host, lower case, any port), or undefined. */
  const domainOf = (headers: Record<string, string>): string | undefined => {
    const host = headers.host === undefined ? undefined : hostnameOf(headers.host);
    return host !== undefined && domains.has(host) ? host : undefined;
  };
  return {
    domains: domains as ReadonlySet<string>,
    domainOf,
    /** The links of the page at `slug` for a request with these headers. */
    linksOf(slug: string, headers: Record<string, string>): PageLinks {
      const domain = domainOf(headers);
      return domain === undefined ? linksAt(`/p/${slug}`) : linksAt('', domain);
    },
  };
}

export type PageHosts = ReturnType<typeof createPageHosts>;
