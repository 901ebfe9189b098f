import * as z from 'zod';
import { SLUG } from '../../domain/formats.ts';
import { defineRoute } from '../../http/define-route.ts';
import type { PublicRoute } from '../../http/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { Table } from '../../store/table.ts';
import type { PageHosts } from '../domains/page-hosts.ts';
import { findPublicPage } from '../items/status-page-items.ts';
import { accessSetCookie } from './access-cookie.ts';
import type { PageAccessPorts } from './page-access-ports.ts';
import { FORM_HEADERS } from './page-gate.ts';
import { renderPasswordForm } from './password-form.ts';

/**
 * POST /p/{slug}/access: the password form's target. The right password sets the page's access
 * cookie and sends the browser back to the page (302); a wrong one answers the form again with an
 * error (401), counted against the address as failed sign-ins are (per address and page, and per
 * address over all), and against the page over every address (VIGIL_AUTH_FAILURE_LIMIT a minute),
 * past any of which it is 429 whatever the password. A page that is unknown or not
 * a password page verifies against a dummy hash and answers the same form, so the answer does not
 * tell a private page from none.
 */

const WRONG = 'That password does not open this page.';

class WrongPagePassword extends AppError {
  override name = 'WrongPagePassword';
  constructor() {
    super('UNAUTHORIZED', 401, WRONG);
  }
}

const form = z.object({ password: z.string().max(200) });

export interface AccessRouteDeps {
  table: Table;
  clock: Clock;
  pageAccess: PageAccessPorts;
  /** On its custom domain the page is `/`: the cookie's path and the redirect follow. */
  pageHosts: PageHosts;
}

export function pageAccessRoutes(deps: AccessRouteDeps): PublicRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/p/{slug}/access',
      auth: 'none',
      // As POST /v1/session: the handler counts wrong passwords under the failed sign-in limits.
      limit: 'credential',
      body: 'raw',
      operationId: 'openPrivateStatusPage',
      tag: 'Public status pages',
      summary:
        'The password form of a private status page: the right password sets its access cookie (Path=/p/{slug}; / on the page’s custom domain) and redirects to the page',
      schemas: {
        params: z.object({ slug: z.string().max(200).meta({ description: 'The page’s slug' }) }),
        rawBody: { contentType: 'application/x-www-form-urlencoded', schema: form },
        responses: { 302: null },
        otherErrors: {
          401: {
            description: 'A wrong password (or no such private page): the form again, with an error',
            contentType: 'text/html',
            schema: z.string(),
          },
        },
      },
      handler: async (ctx) => {
        const slug = ctx.params.slug;
        const links = deps.pageHosts.linksOf(slug, ctx.headers);
        const fields = new URLSearchParams(ctx.rawBody.toString('utf8'));
        const password = (fields.get('password') ?? '').slice(0, 200);
        const page = SLUG.test(slug) ? await findPublicPage(deps.table, slug) : undefined;
        const hash = page?.visibility === 'password' ? page.password_hash : null;
        try {
          const isWrong = (error: unknown) => error instanceof WrongPagePassword;
          // Per address (and page), then per page over every address: a guess spread over many
          // addresses is bounded too.
          await deps.pageAccess.limits.attempt(
            ctx,
            `page:${slug}`,
            () =>
              deps.pageAccess.limits.attemptAcrossAddresses(
                `page:${slug}`,
                async () => {
                  const right = await deps.pageAccess.passwords.verify(
                    password,
                    hash ?? deps.pageAccess.passwords.dummyHash,
                  );
                  if (!right || hash === null) throw new WrongPagePassword();
                },
                isWrong,
              ),
            isWrong,
          );
        } catch (error) {
          if (!(error instanceof WrongPagePassword)) throw error;
          return new Response(renderPasswordForm(links.base, WRONG), { status: 401, headers: FORM_HEADERS });
        }
        const key = page?.access_key ?? '';
        return new Response(null, {
          status: 302,
          headers: {
            location: links.home,
            'cache-control': 'no-store',
            'set-cookie': accessSetCookie(
              { slug, path: links.home },
              key,
              deps.clock.now(),
              deps.pageAccess.secureRequest(ctx.headers),
            ),
          },
        });
      },
    }),
  ];
}
