import * as z from 'zod';
import { entityNamer } from '../../catalog/entities.ts';
import { SLUG } from '../../domain/formats.ts';
import { defineRoute } from '../../http/define-route.ts';
import { htmlHeaders } from '../../http/small-page.ts';
import type { PublicRoute } from '../../http/types.ts';
import type { Table } from '../../store/table.ts';
import { type PageGate, PRIVATE_PAGE_REFUSAL } from '../access/page-gate.ts';
import type { PageHosts, PageLinks } from '../domains/page-hosts.ts';
import { createLoadCache } from '../html/page-cache.ts';
import { archiveMonths, type HistoryPage, historyPage, monthArchive } from '../incidents/public-incidents.ts';
import { findPublicPage } from '../items/status-page-items.ts';
import { buildPublicView, type PublicPage, type PublicViewDeps, publicPageSchema } from './public-view.ts';
import { renderBadge } from './render-badge.ts';
import { PAGE_CSP, renderHistory, renderNotFound, renderPage } from './render-html.ts';

/**
 * The public status pages, served without a key (DECISIONS.md): /p/{slug} (HTML), its
 * status.json and badge.svg. Limited per source address by the router (`limit: 'address'`), cached
 * 30 s in this process (below), by browsers and, in the cloud, by the console's CloudFront
 * distribution (infra/console.ts). A change of a page or its entities shows within those 30 s:
 * the cache expires by time only (no invalidation to get wrong across Lambda instances).
 * An unknown slug is a 404 of the same kind (an HTML page, a JSON error, a grey badge).
 */

const PUBLIC_CACHE = 'public, max-age=30';
const tag = 'Public status pages';

/** The headers of a public page's HTML (and of the 404 page). */
export const HTML_HEADERS = htmlHeaders(PUBLIC_CACHE, PAGE_CSP);
const SVG_HEADERS = {
  'content-type': 'image/svg+xml; charset=utf-8',
  'cache-control': PUBLIC_CACHE,
  // An SVG opened as a document runs no script and loads nothing either.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
};
const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': PUBLIC_CACHE,
  'x-content-type-options': 'nosniff',
  // Readable by status widgets on other sites: nothing in it needs a key.
  'access-control-allow-origin': '*',
};

/** Any path segment: a malformed slug is an unknown page (answered by the route, in its own format). */
const params = z.object({ slug: z.string().max(200).meta({ description: 'The page’s slug' }) });

/** The answers of a public HTML page: the page, the 404 page of an unknown slug, or a private page's refusal. */
const htmlPageAnswers = {
  responses: { 200: { contentType: 'text/html', schema: z.string() } },
  otherErrors: {
    ...PRIVATE_PAGE_REFUSAL,
    404: { description: 'An unknown slug: the 404 page', contentType: 'text/html', schema: z.string() },
  },
};

const historyQuery = z.object({
  before: z
    .string()
    .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/)
    .optional()
    .meta({
      description: 'Only incidents that started before this time (the "Older incidents" link gives it)',
    }),
});

export interface PublicRouteDeps extends PublicViewDeps {
  table: Table;
  /** False for a tenant that is gone or disabled by the operator: its pages answer as unknown. */
  tenantLive: (tenantId: string) => Promise<boolean>;
  /** Private pages: every route answers through it (lib/status-pages/access/page-gate.ts). */
  gate: PageGate;
  /** The page domains: a page read on its custom domain links under its root, else under /p/{slug}. */
  pageHosts: PageHosts;
  /** Whether this deployment can send mail: the page offers e-mail sign-up only then. */
  mail: boolean;
}

/** How long one render of a page serves every request for it: the answers' own max-age. */
export const PAGE_CACHE_MS = 30_000;
/** Pages held per process: far more than are read at once; a rarely read one is rendered again. */
const PAGE_CACHE_ENTRIES = 1000;

/** A page's three answers, each rendered at its first request from the one view. */
interface Rendered {
  html(): string;
  json(): string;
  badge(): string;
}

function rendered(page: PublicPage, links: PageLinks, mail: boolean): Rendered {
  const once = (render: () => string) => {
    let text: string | undefined;
    return () => {
      text ??= render();
      return text;
    };
  };
  return {
    html: once(() => renderPage(page, links, { subscribe: mail })),
    json: once(() => JSON.stringify(page)),
    badge: once(() => renderBadge(page.title, page.state, page.maintenance)),
  };
}

export function publicStatusPageRoutes(deps: PublicRouteDeps): PublicRoute[] {
  // One render per slug and host per PAGE_CACHE_MS whatever the traffic (concurrent misses share it):
  // keyless visitors cannot make the server read a page's entities, bars and incidents more often.
  // Only pages found are kept: an unknown slug is one item read, and a page just created shows at once.
  const cache = createLoadCache<Rendered | undefined>({
    clock: deps.clock,
    ttlMs: PAGE_CACHE_MS,
    maxEntries: PAGE_CACHE_ENTRIES,
    keep: (page) => page !== undefined,
  });
  const load = async (slug: string, links: PageLinks) => {
    const page = await findPublicPage(deps.table, slug);
    if (!page || !(await deps.tenantLive(page.tenant_id))) return undefined;
    return rendered(await buildPublicView(deps, page), links, deps.mail);
  };
  // Keyed by the host too: the page's own links differ on its custom domain.
  const view = async (slug: string, headers: Record<string, string>) => {
    if (!SLUG.test(slug)) return undefined;
    const links = deps.pageHosts.linksOf(slug, headers);
    return cache.get(JSON.stringify([slug, links.domain ?? '']), () => load(slug, links));
  };

  // The history pages: one render per page, `before` and month per PAGE_CACHE_MS, as the page's.
  const historyCache = createLoadCache<string | undefined>({
    clock: deps.clock,
    ttlMs: PAGE_CACHE_MS,
    maxEntries: PAGE_CACHE_ENTRIES,
    keep: (html) => html !== undefined,
  });
  const history = (slug: string, links: PageLinks, month: string | undefined, before: string | undefined) => {
    if (!SLUG.test(slug)) return Promise.resolve(undefined);
    return historyCache.get(JSON.stringify([slug, links.domain ?? '', month, before]), async () => {
      const page = await findPublicPage(deps.table, slug);
      if (!page || !(await deps.tenantLive(page.tenant_id))) return undefined;
      const named = (await entityNamer(deps.table, page.tenant_id, page.entity_ids))(page.entity_ids);
      const ref = { tenantId: page.tenant_id, slug, names: new Map(named.map((e) => [e.id, e.name])) };
      const nowMs = deps.clock.now();
      const [read, archive]: [HistoryPage, string[]] = await Promise.all([
        month === undefined
          ? historyPage(deps.table, ref, nowMs, before)
          : monthArchive(deps.table, ref, month, before),
        archiveMonths(deps.table, ref, page.created_at, nowMs),
      ]);
      const path = `${links.base}/history${month === undefined ? '' : `/${month}`}`;
      return renderHistory({
        title: page.title,
        links,
        heading: month === undefined ? 'Incident history (last 90 days)' : `Incidents of ${month}`,
        path,
        page: read,
        archive,
      });
    });
  };
  const htmlAnswer = (html: string | undefined) =>
    html === undefined
      ? new Response(renderNotFound(), { status: 404, headers: HTML_HEADERS })
      : new Response(html, { status: 200, headers: HTML_HEADERS });
  /** A history route's handler: the page's incidents of the last 90 days, or of the route's month. */
  const historyHandler =
    <P extends { slug: string }>(monthOf: (params: P) => string | undefined) =>
    (ctx: {
      params: P;
      query: { before?: string | undefined };
      headers: Record<string, string>;
      path: string;
      method: string;
    }) =>
      deps.gate.guard(ctx.params.slug, ctx, async () =>
        htmlAnswer(
          await history(
            ctx.params.slug,
            deps.pageHosts.linksOf(ctx.params.slug, ctx.headers),
            monthOf(ctx.params),
            ctx.query.before,
          ),
        ),
      );
  return [
    defineRoute({
      method: 'GET',
      path: '/p/{slug}',
      auth: 'none',
      limit: 'address',
      operationId: 'getPublicStatusPage',
      tag,
      summary: 'A public status page (HTML, no script, no key); 404 page for an unknown slug',
      schemas: {
        params,
        ...htmlPageAnswers,
      },
      handler: ({ params: p, headers, path, method }) =>
        deps.gate.guard(p.slug, { headers, path, method }, async () => {
          const page = await view(p.slug, headers);
          if (!page) return new Response(renderNotFound(), { status: 404, headers: HTML_HEADERS });
          return new Response(page.html(), { status: 200, headers: HTML_HEADERS });
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/p/{slug}/history',
      auth: 'none',
      limit: 'address',
      operationId: 'getPublicIncidentHistory',
      tag,
      summary:
        'A public status page’s written incidents of the last 90 days, newest first, a page at a time (HTML)',
      schemas: {
        params,
        query: historyQuery,
        ...htmlPageAnswers,
      },
      handler: historyHandler(() => undefined),
    }),
    defineRoute({
      method: 'GET',
      path: '/p/{slug}/history/{month}',
      auth: 'none',
      limit: 'address',
      operationId: 'getPublicIncidentArchive',
      tag,
      summary:
        'A public status page’s written incidents that started in one month (UTC), newest first (HTML)',
      schemas: {
        params: params.extend({
          month: z
            .string()
            .regex(/^[0-9]{4}-(0[1-9]|1[0-2])$/)
            .meta({ description: 'yyyy-mm' }),
        }),
        query: historyQuery,
        ...htmlPageAnswers,
      },
      handler: historyHandler((p) => p.month),
    }),
    defineRoute({
      method: 'GET',
      path: '/p/{slug}/status.json',
      auth: 'none',
      limit: 'address',
      operationId: 'getPublicStatusJson',
      tag,
      summary: 'A public status page as JSON: entities’ names and states, daily uptime bars, incidents',
      schemas: { params, responses: { 200: publicPageSchema }, otherErrors: PRIVATE_PAGE_REFUSAL },
      handler: ({ params: p, headers, path, method }) =>
        deps.gate.guard(p.slug, { headers, path, method }, async () => {
          const page = await view(p.slug, headers);
          const body = page
            ? page.json()
            : JSON.stringify({ error: 'status page not found', code: 'NOT_FOUND' });
          return new Response(body, { status: page ? 200 : 404, headers: JSON_HEADERS });
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/p/{slug}/badge.svg',
      auth: 'none',
      limit: 'address',
      operationId: 'getPublicStatusBadge',
      tag,
      summary: 'A badge (SVG) of a public status page’s overall state',
      schemas: {
        params,
        responses: { 200: { contentType: 'image/svg+xml', schema: z.string() } },
        otherErrors: {
          ...PRIVATE_PAGE_REFUSAL,
          404: {
            description: 'An unknown slug: a grey "unknown" badge',
            contentType: 'image/svg+xml',
            schema: z.string(),
          },
        },
      },
      handler: ({ params: p, headers, path, method }) =>
        deps.gate.guard(p.slug, { headers, path, method }, async () => {
          const page = await view(p.slug, headers);
          const svg = page ? page.badge() : renderBadge('status page', 'unknown');
          return new Response(svg, { status: page ? 200 : 404, headers: SVG_HEADERS });
        }),
    }),
  ];
}
