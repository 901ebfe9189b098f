import * as z from 'zod';
import { entityNamer } from '../../catalog/entities.ts';
import { SLUG } from '../../domain/formats.ts';
import { defineRoute } from '../../http/define-route.ts';
import type { HostPolicy } from '../../http/origin-policy.ts';
import { publicOrigin } from '../../http/policies.ts';
import type { PublicRoute } from '../../http/types.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import { type PageGate, PRIVATE_PAGE_REFUSAL } from '../access/page-gate.ts';
import type { PageHosts } from '../domains/page-hosts.ts';
import { createLoadCache } from '../html/page-cache.ts';
import { findPublicPage } from '../items/status-page-items.ts';
import { readFeedIncidents } from './feed-entries.ts';
import { renderAtom, renderRss } from './render-feed.ts';

/**
 * A page's RSS 2.0 and Atom feeds (issue 54 item 3), keyless like the page: limited per address
 * by the router, one render per page, format and origin per 30 s whatever the traffic (the
 * page's own cache rule, public-routes.ts), and cached 30 s by readers and CloudFront. An unknown
 * page, or one of a tenant gone dark, is a 404. Links are absolute (feeds need them): on the
 * page's custom domain when read there (https://{domain}/…), else on VIGIL_PUBLIC_URL when set, else
 * on the allowed Host the request came in on (an unknown Host is 403, as for the OAuth metadata: a
 * rebinding page cannot make a feed name it).
 */

const FEED_CACHE_MS = 30_000;
const FEED_CACHE_ENTRIES = 1000;
const tag = 'Public status pages';

const FORMATS = {
  rss: { contentType: 'application/rss+xml', render: renderRss },
  atom: { contentType: 'application/atom+xml', render: renderAtom },
} as const;
type FeedFormat = keyof typeof FORMATS;

const params = z.object({ slug: z.string().max(200).meta({ description: 'The page’s slug' }) });

export interface FeedRouteDeps {
  table: Table;
  clock: Clock;
  /** False for a tenant gone or disabled by the operator: its pages answer as unknown. */
  tenantLive: (tenantId: string) => Promise<boolean>;
  /** The host names Vigil answers under and VIGIL_PUBLIC_URL: the feeds' links are on them. */
  hosts: HostPolicy;
  /** Private pages answer their feeds only with the page's access cookie. */
  gate: PageGate;
  /** On its custom domain a page's feeds link to https://{domain}/…. */
  pageHosts: PageHosts;
}

/** GET /p/{slug}/feed.rss and /p/{slug}/feed.atom. */
export function feedRoutes(deps: FeedRouteDeps): PublicRoute[] {
  const cache = createLoadCache<string | undefined>({
    clock: deps.clock,
    ttlMs: FEED_CACHE_MS,
    maxEntries: FEED_CACHE_ENTRIES,
    keep: (xml) => xml !== undefined,
  });
  const load = async (slug: string, format: FeedFormat, origin: string, base: string) => {
    const page = await findPublicPage(deps.table, slug);
    if (!page || !(await deps.tenantLive(page.tenant_id))) return undefined;
    const nowMs = deps.clock.now();
    const [records, named] = await Promise.all([
      readFeedIncidents(deps.table, { tenantId: page.tenant_id, slug }, nowMs),
      entityNamer(deps.table, page.tenant_id, page.entity_ids),
    ]);
    const names = new Map(named(page.entity_ids).map((e) => [e.id, e.name]));
    return FORMATS[format].render(
      {
        slug,
        title: page.title,
        description: page.description,
        origin,
        base,
        names,
        nowIso: new Date(nowMs).toISOString(),
      },
      records,
    );
  };
  const route = (format: FeedFormat, operationId: string, summary: string) =>
    defineRoute({
      method: 'GET',
      path: `/p/{slug}/feed.${format}`,
      auth: 'none',
      limit: 'address',
      operationId,
      tag,
      summary,
      schemas: {
        params,
        responses: { 200: { contentType: FORMATS[format].contentType, schema: z.string() } },
        otherErrors: PRIVATE_PAGE_REFUSAL,
      },
      handler: (ctx) =>
        deps.gate.guard(ctx.params.slug, ctx, async () => {
          const slug = ctx.params.slug;
          // On the page's custom domain, https://{domain}; else Vigil's own origin (an unknown Host is 403).
          const links = deps.pageHosts.linksOf(slug, ctx.headers);
          const origin =
            links.domain === undefined ? publicOrigin(deps.hosts, ctx) : `https://${links.domain}`;
          const xml = SLUG.test(slug)
            ? await cache.get(JSON.stringify([slug, format, origin, links.base]), () =>
                load(slug, format, origin, links.base),
              )
            : undefined;
          const headers = {
            'cache-control': 'public, max-age=30',
            'x-content-type-options': 'nosniff',
            // Opened as a document, a feed runs nothing and loads nothing.
            'content-security-policy': "default-src 'none'",
            // Readable by feed readers running in other sites' pages: nothing in it needs a key.
            'access-control-allow-origin': '*',
          };
          // Unknown: the JSON error status.json answers, cached as the page's 404s are.
          if (xml === undefined)
            return new Response(JSON.stringify({ error: 'status page not found', code: 'NOT_FOUND' }), {
              status: 404,
              headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
            });
          return new Response(xml, {
            status: 200,
            headers: { ...headers, 'content-type': `${FORMATS[format].contentType}; charset=utf-8` },
          });
        }),
    });
  return [
    route(
      'rss',
      'getPublicStatusFeedRss',
      'A public status page’s written incidents as RSS 2.0: one item per incident with its updates, newest first (90 days, at most 25)',
    ),
    route(
      'atom',
      'getPublicStatusFeedAtom',
      'A public status page’s written incidents as Atom 1.0 (RFC 4287): one entry per incident with its updates, newest first (90 days, at most 25)',
    ),
  ];
}
