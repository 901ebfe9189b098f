import * as z from 'zod';
import { SLUG } from '../domain/slug.ts';
import { defineRoute } from '../http/define-route.ts';
import type { PublicRoute } from '../http/types.ts';
import type { Table } from '../store/table.ts';
import { buildPublicView, type PublicViewDeps, publicPageSchema } from './public-view.ts';
import { renderBadge } from './render-badge.ts';
import { PAGE_CSP, renderNotFound, renderPage } from './render-html.ts';
import { findPublicPage } from './status-page-items.ts';

/**
 * The public status pages, served without a key (DECISIONS.md): /p/{slug} (HTML), its
 * status.json and badge.svg. Limited per source address by the router (`limit: 'address'`), cached
 * 30 s by browsers and, in the cloud, by the console's CloudFront distribution (infra/console.ts).
 * An unknown slug is a 404 of the same kind (an HTML page, a JSON error, a grey badge).
 */

export const PUBLIC_CACHE = 'public, max-age=30';
const tag = 'Public status pages';

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': PUBLIC_CACHE,
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};
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

export interface PublicRouteDeps extends PublicViewDeps {
  table: Table;
  /** False for a tenant that is gone or disabled by the operator: its pages answer as unknown. */
  tenantLive: (tenantId: string) => Promise<boolean>;
}

export function publicStatusPageRoutes(deps: PublicRouteDeps): PublicRoute[] {
  const view = async (slug: string) => {
    const page = SLUG.test(slug) ? await findPublicPage(deps.table, slug) : undefined;
    if (!page || !(await deps.tenantLive(page.tenant_id))) return undefined;
    return buildPublicView(deps, page);
  };
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
        responses: { 200: { contentType: 'text/html', schema: z.string() } },
        otherErrors: {
          404: { description: 'An unknown slug: the 404 page', contentType: 'text/html', schema: z.string() },
        },
      },
      handler: async ({ params: p }) => {
        const page = await view(p.slug);
        if (!page) return new Response(renderNotFound(), { status: 404, headers: HTML_HEADERS });
        return new Response(renderPage(page), { status: 200, headers: HTML_HEADERS });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/p/{slug}/status.json',
      auth: 'none',
      limit: 'address',
      operationId: 'getPublicStatusJson',
      tag,
      summary: 'A public status page as JSON: entities’ names and states, daily uptime bars, incidents',
      schemas: { params, responses: { 200: publicPageSchema } },
      handler: async ({ params: p }) => {
        const page = await view(p.slug);
        const body = page ?? { error: 'status page not found', code: 'NOT_FOUND' };
        return new Response(JSON.stringify(body), { status: page ? 200 : 404, headers: JSON_HEADERS });
      },
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
          404: {
            description: 'An unknown slug: a grey "unknown" badge',
            contentType: 'image/svg+xml',
            schema: z.string(),
          },
        },
      },
      handler: async ({ params: p }) => {
        const page = await view(p.slug);
        const svg = page ? renderBadge(page.title, page.state) : renderBadge('status page', 'unknown');
        return new Response(svg, { status: page ? 200 : 404, headers: SVG_HEADERS });
      },
    }),
  ];
}
