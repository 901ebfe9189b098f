import * as z from 'zod';
import { htmlHeaders } from '../../http/small-page.ts';
import type { RouteContext } from '../../http/types.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import type { PageHosts } from '../domains/page-hosts.ts';
import { createLoadCache } from '../html/page-cache.ts';
import { findPublicPage } from '../items/status-page-items.ts';
import { hasAccess } from './access-cookie.ts';
import type { PageAccessPorts } from './page-access-ports.ts';
import { FORM_CSP, renderPasswordForm, renderSsoPrompt } from './password-form.ts';
import { ssoDomainSession } from './sso-domain-cookie.ts';
import { ssoPassPath, ssoStartLink } from './sso-links.ts';

/**
 * Who may read a page's keyless routes (every /p/{slug} route: the page, its history, status.json,
 * badge and feeds). A public page answers as before; a password page answers its routes only to a
 * request carrying a valid access cookie (access-cookie.ts), privately (`Cache-Control: private,
 * no-store`, so neither a browser's shared cache nor CloudFront keeps it), and the password form
 * (401) to any other. An SSO page answers only a request whose console session (the session
 * cookie, Path=/) is of the page's team and signed in through its SSO, and to any other a page
 * with a link to that SSO's sign-in, which comes back to the page (401). On the page's custom domain,
 * which never receives the session cookie, the reader's is the domain's `vigil_page_sso` cookie
 * (sso-domain-cookie.ts) naming a session, read on every request; the link there is the hand-off
 * on Vigil's host that gives that cookie (../public/sso-pass-routes.ts). The page's privacy is read
 * once per slug per 30 s like its render, so a change of visibility or password takes effect within
 * 30 s, as every page change does; a session's end takes effect at once.
 */

const GATE_CACHE_MS = 30_000;
const GATE_CACHE_ENTRIES = 1000;
const PRIVATE_CACHE = 'private, no-store';

export const FORM_HEADERS = htmlHeaders(PRIVATE_CACHE, FORM_CSP);

/**
 * The answer every route behind the gate may give (its `otherErrors`, so the OpenAPI document
 * declares it): a private page's 401 to a reader it does not let in, an HTML page.
 */
export const PRIVATE_PAGE_REFUSAL = {
  401: {
    description:
      'A private page, to a reader it does not let in: the password form, or the link to sign in through its SSO (HTML, nothing of the page)',
    contentType: 'text/html',
    schema: z.string(),
  },
};

interface Privacy {
  visibility: 'public' | 'password' | 'sso';
  tenantId: string;
  /** The key its cookies are signed with (password and SSO pages); null for public ones. */
  accessKey: string | null;
}

export interface PageGateDeps {
  table: Table;
  clock: Clock;
  sessionOf: PageAccessPorts['sessionOf'];
  sessionById: PageAccessPorts['sessionById'];
  /** Vigil's own origin (VIGIL_PUBLIC_URL's), where an SSO page's readers on its domain sign in. */
  publicOrigin: string | undefined;
  /** The page domains: on its custom domain, a page's password form posts to /access. */
  pageHosts: PageHosts;
}

/** The gate in front of every /p/{slug} route. */
export function createPageGate(deps: PageGateDeps) {
  const cache = createLoadCache<Privacy | undefined>({
    clock: deps.clock,
    ttlMs: GATE_CACHE_MS,
    maxEntries: GATE_CACHE_ENTRIES,
    keep: (p) => p !== undefined,
  });
  const privacy = (slug: string) =>
    cache.get(slug, async () => {
      const page = await findPublicPage(deps.table, slug);
      if (!page) return undefined;
      return {
        visibility: page.visibility,
        tenantId: page.tenant_id,
        accessKey: page.visibility === 'public' ? null : page.access_key,
      };
    });

  /** On the page's domain: the session the domain cookie names, when the page's key signed it. */
  const domainReader = async (slug: string, page: Privacy, ctx: Pick<RouteContext, 'headers'>) => {
    const ref =
      page.accessKey === null ? undefined : ssoDomainSession(ctx.headers.cookie, slug, page.accessKey);
    return ref === undefined ? undefined : deps.sessionById({ tenantId: page.tenantId, ...ref });
  };
  /**
   * Where the prompt sends a reader: on Vigil's host the SSO sign-in, back to the page; on the
   * domain the hand-off on Vigil's host, back to the path asked for (a form's target: the page).
   */
  const signInLink = (
    slug: string,
    tenantId: string,
    domain: string | undefined,
    ctx: Pick<RouteContext, 'path' | 'method'>,
  ) => {
    if (domain === undefined) return ssoStartLink(tenantId, `/p/${slug}`);
    const asked = ctx.method === 'GET' ? ctx.path.slice(`/p/${slug}`.length) || '/' : '/';
    return `${deps.publicOrigin ?? ''}${ssoPassPath(slug, asked)}`;
  };

  return {
    /**
     * The route's own answer when the page is public, unknown (its own 404) or opened by the
     * request's cookie (then private, not stored by shared caches); else the password form.
     */
    async guard(
      slug: string,
      ctx: Pick<RouteContext, 'headers' | 'path' | 'method'>,
      answer: () => Promise<Response>,
    ) {
      const page = await privacy(slug);
      if (page === undefined || page.visibility === 'public') return answer();
      if (page.visibility === 'sso') {
        const domain = deps.pageHosts.domainOf(ctx.headers);
        const reader =
          domain === undefined ? await deps.sessionOf(ctx.headers) : await domainReader(slug, page, ctx);
        if (reader?.tenantId !== page.tenantId || reader.signedInWith !== 'sso')
          return new Response(renderSsoPrompt(signInLink(slug, page.tenantId, domain, ctx)), {
            status: 401,
            headers: FORM_HEADERS,
          });
      } else if (
        page.accessKey === null ||
        !hasAccess(ctx.headers.cookie, slug, page.accessKey, deps.clock.now())
      )
        return new Response(renderPasswordForm(deps.pageHosts.linksOf(slug, ctx.headers).base), {
          status: 401,
          headers: FORM_HEADERS,
        });
      const res = await answer();
      const headers = new Headers(res.headers);
      headers.set('cache-control', PRIVATE_CACHE);
      headers.delete('access-control-allow-origin');
      return new Response(res.body, { status: res.status, headers });
    },
  };
}

export type PageGate = ReturnType<typeof createPageGate>;
