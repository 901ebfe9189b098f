import type { HttpRequest } from '../../http/types.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import type { PageHosts } from '../domains/page-hosts.ts';
import { createLoadCache } from '../html/page-cache.ts';
import { findDomainPage } from '../items/status-page-items.ts';
import { HTML_HEADERS } from './public-routes.ts';
import { renderNotFound } from './render-html.ts';

/**
 * A request on a page's custom domain (docs/status-pages.md "Custom domains"), before the router
 * matches it: `/` is the page's /p/{slug}, and its other public paths (history, feeds, status.json,
 * badge, subscribe, confirmation and manage links, the password form, an SSO page's hand-off)
 * follow under it. Every other
 * path (the API, the console, MCP, OAuth, ping URLs) is the 404 page: a customer's domain serves
 * one page and nothing of Vigil. A request on any other host goes on as it came.
 */

/** The paths a page answers on its domain: the /p/{slug} routes' own, without the prefix. */
const PAGE_PATHS =
  /^\/(?:history(?:\/[0-9]{4}-[0-9]{2})?|status\.json|badge\.svg|feed\.(?:rss|atom)|subscribe|access|sso-pass|confirm\/[^/]+|subscription\/[^/]+)?$/;

/** Which page a domain serves is read once per 30 s, as a page's render (public-routes.ts). */
const DOMAIN_CACHE_MS = 30_000;

export function createDomainRequests(deps: { table: Table; clock: Clock; hosts: PageHosts }) {
  // Found or not, kept 30 s: the list is the operator's (at most 100 names), so keyless requests
  // on an unclaimed one read the table once per 30 s, not once each.
  const cache = createLoadCache<string | undefined>({
    clock: deps.clock,
    ttlMs: DOMAIN_CACHE_MS,
    maxEntries: Math.max(1, deps.hosts.domains.size),
  });
  const notFound = () => new Response(renderNotFound(), { status: 404, headers: HTML_HEADERS });

  /** The request as the route table knows it, or the 404 page for a path a page domain does not serve. */
  return async (req: HttpRequest): Promise<HttpRequest | Response> => {
    const domain = deps.hosts.domainOf(req.headers);
    if (domain === undefined) return req;
    if (!PAGE_PATHS.test(req.path)) return notFound();
    const slug = await cache.get(domain, () => findDomainPage(deps.table, domain));
    if (slug === undefined) return notFound();
    return { ...req, path: req.path === '/' ? `/p/${slug}` : `/p/${slug}${req.path}` };
  };
}
