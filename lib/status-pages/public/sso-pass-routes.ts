import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { SLUG } from '../../domain/formats.ts';
import { defineRoute } from '../../http/define-route.ts';
import type { PublicRoute, RouteContext } from '../../http/types.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import type { PageAccessPorts } from '../access/page-access-ports.ts';
import { FORM_HEADERS } from '../access/page-gate.ts';
import { renderSsoPrompt } from '../access/password-form.ts';
import { ssoDomainSetCookie } from '../access/sso-domain-cookie.ts';
import { pagePathOrRoot, ssoPassPath, ssoStartLink } from '../access/sso-links.ts';
import { putSsoPass, takeSsoPass } from '../access/sso-pass-items.ts';
import type { PageHosts } from '../domains/page-hosts.ts';
import { findPublicPage } from '../items/status-page-items.ts';
import { HTML_HEADERS } from './public-routes.ts';
import { renderNotFound } from './render-html.ts';

/**
 * GET /p/{slug}/sso-pass: how an SSO page's reader gets in on its custom domain, which never
 * receives Vigil's session cookie (docs/status-pages.md "SSO pages on a custom domain"). One route,
 * two ends, told apart by the Host as the password form's is:
 * - on Vigil's host, a console session of the page's team signed in by its SSO gets a single-use
 *   token (random, stored hashed, 60 s) and a redirect to `https://{domain}/sso-pass?token=&to=`;
 *   any other caller goes to the team's SSO sign-in, which comes back here;
 * - on the domain (its `/sso-pass`), the token is taken (deleted while still there: a second use,
 *   an expired one, one of another page or domain fail), the domain's `vigil_page_sso` cookie
 *   naming the session is set, and the browser goes to `to` (a path on the domain, else `/`).
 */

const PASS_MS = 60_000;
const PASS_FAILED = 'That sign-in link was used already or has expired: sign in again.';
const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const query = z.object({
  to: z.string().max(2000).optional().meta({ description: 'The path on the page’s domain to land on' }),
  token: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'On the page’s domain: the single-use token the hand-off gave' }),
});

export interface SsoPassRouteDeps {
  table: Table;
  clock: Clock;
  pageAccess: PageAccessPorts;
  pageHosts: PageHosts;
  /** Vigil's own origin (VIGIL_PUBLIC_URL's): the link a failed hand-off offers goes back there. */
  publicOrigin: string | undefined;
}

const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, {
    status: 302,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', ...headers },
  });

/** An SSO page with a domain and a key, which the hand-off serves; undefined for any other. */
const handOffPage = async (table: Table, slug: string) => {
  const page = SLUG.test(slug) ? await findPublicPage(table, slug) : undefined;
  if (page?.visibility !== 'sso' || page.domain === null || page.access_key === null) return undefined;
  return { tenantId: page.tenant_id, domain: page.domain, accessKey: page.access_key };
};

export function ssoPassRoutes(deps: SsoPassRouteDeps): PublicRoute[] {
  const notFound = () => new Response(renderNotFound(), { status: 404, headers: HTML_HEADERS });

  /** Vigil's end: a token for a reader signed in by the team's SSO, else that sign-in first. */
  const give = async (ctx: Pick<RouteContext, 'headers'>, slug: string, to: string) => {
    const page = await handOffPage(deps.table, slug);
    if (!page) return notFound();
    const reader = await deps.pageAccess.sessionOf(ctx.headers);
    if (reader?.tenantId !== page.tenantId || reader.signedInWith !== 'sso')
      return redirect(ssoStartLink(page.tenantId, ssoPassPath(slug, to)));
    const token = randomBytes(32).toString('base64url');
    await putSsoPass(deps.table, {
      token_hash: sha256(token),
      tenant_id: page.tenantId,
      slug,
      domain: page.domain,
      user_id: reader.userId,
      session_id: reader.sessionId,
      expires_at: isoTime(deps.clock.now() + PASS_MS),
    });
    return redirect(`https://${page.domain}/sso-pass?${new URLSearchParams({ token, to })}`);
  };

  /** The domain's end: the token taken once, the cookie naming its session, then `to`. */
  const take = async (
    ctx: Pick<RouteContext, 'headers'>,
    slug: string,
    domain: string,
    to: string,
    token = '',
  ) => {
    const page = await handOffPage(deps.table, slug);
    if (!page || page.domain !== domain) return notFound();
    const now = deps.clock.now();
    const pass = token === '' ? undefined : await takeSsoPass(deps.table, sha256(token), isoTime(now));
    const reader =
      pass?.tenant_id === page.tenantId && pass.slug === slug && pass.domain === domain
        ? await deps.pageAccess.sessionById({
            tenantId: pass.tenant_id,
            userId: pass.user_id,
            sessionId: pass.session_id,
          })
        : undefined;
    if (reader?.signedInWith !== 'sso') {
      const again = `${deps.publicOrigin ?? ''}${ssoPassPath(slug, to)}`;
      return new Response(renderSsoPrompt(again, PASS_FAILED), { status: 403, headers: FORM_HEADERS });
    }
    const cookie = ssoDomainSetCookie(
      slug,
      page.accessKey,
      reader,
      (reader.expiresAtMs - now) / 1000,
      deps.pageAccess.secureRequest(ctx.headers),
    );
    return redirect(to, { 'set-cookie': cookie });
  };

  return [
    defineRoute({
      method: 'GET',
      path: '/p/{slug}/sso-pass',
      auth: 'none',
      limit: 'address',
      operationId: 'passSsoStatusPageReader',
      tag: 'Public status pages',
      summary:
        'An SSO page’s reader to its custom domain: on Vigil’s host a single-use token (or the SSO sign-in first), on the domain the token for its cookie',
      schemas: {
        params: z.object({ slug: z.string().max(200).meta({ description: 'The page’s slug' }) }),
        query,
        responses: { 302: null },
        otherErrors: {
          403: {
            description: 'On the domain: a token used, expired or of another page; the sign-in link again',
            contentType: 'text/html',
            schema: z.string(),
          },
          404: {
            description: 'No SSO page with a custom domain: the 404 page',
            contentType: 'text/html',
            schema: z.string(),
          },
        },
      },
      handler: async (ctx) => {
        const to = pagePathOrRoot(ctx.query.to);
        const domain = deps.pageHosts.domainOf(ctx.headers);
        return domain === undefined
          ? give(ctx, ctx.params.slug, to)
          : take(ctx, ctx.params.slug, domain, to, ctx.query.token);
      },
    }),
  ];
}
