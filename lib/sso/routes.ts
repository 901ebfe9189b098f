import type { Actor } from '../domain/principal.ts';
import { defineRoute } from '../http/define-route.ts';
import { readRoute } from '../http/handlers.ts';
import { joinSetCookies } from '../http/policies.ts';
import { ok, type Reply, type Route } from '../http/types.ts';
import type { Logger } from '../platform/logger.ts';
import { ssoCallbackQuery, ssoSettingsBody, ssoSettingsSchema, ssoStartQuery } from './sso-schemas.ts';
import type { SsoSettingsService } from './sso-settings.ts';
import { SsoRefusal, type SsoSignIn } from './sso-sign-in.ts';

const tag = 'SSO';

const LOCATION_HEADER = {
  Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
};

/** A redirect no cache keeps and no Referer carries on (the callback's URL holds the code). */
function redirect(location: string, headers: Record<string, string> = {}): Reply {
  return {
    status: 302,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', ...headers },
  };
}

/** Back to the console's sign-in page with a short code, never the provider's text (and `headers`). */
async function orSignInPage(
  ctx: { logger: Logger },
  run: () => Promise<Reply>,
  headers: Record<string, string> = {},
) {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof SsoRefusal)) throw err;
    ctx.logger.info('SSO sign-in refused', { code: err.code });
    return redirect(`/sign-in?error=${encodeURIComponent(err.code)}`, headers);
  }
}

/** `GET/PUT /v1/settings/sso` (admins) and the browser's `GET /v1/sso/start` and `/v1/sso/callback`. */
export function ssoRoutes(deps: { settings: SsoSettingsService; signIn: SsoSignIn }): Route[] {
  return [
    readRoute({
      path: '/v1/settings/sso',
      role: 'admin',
      operationId: 'getSsoSettings',
      tag,
      summary: 'The team’s SSO (OIDC) settings; the client secret shows as ********',
      response: ssoSettingsSchema,
      read: (tenantId) => deps.settings.get(tenantId),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/settings/sso',
      auth: 'key',
      role: 'admin',
      operationId: 'putSsoSettings',
      tag,
      summary: 'Set the team’s SSO (OIDC) settings (admins); the client secret is write-only',
      schemas: { body: ssoSettingsBody, responses: { 200: ssoSettingsSchema }, errors: ['CONFLICT'] },
      handler: async ({ principal, body }) => {
        const view = await deps.settings.put(principal.tenantId, body);
        return {
          ...ok(view),
          audit: { action: 'sso_settings.update', target: { type: 'sso_settings', id: principal.tenantId } },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/sso/start',
      auth: 'none',
      operationId: 'startSso',
      tag,
      summary: 'Start an SSO sign-in: a redirect to the team’s provider (or to /sign-in?error=…)',
      schemas: {
        query: ssoStartQuery,
        responses: { 302: null },
        responseHeaders: {
          ...LOCATION_HEADER,
          'Set-Cookie': {
            description:
              'vigil_sso, binding the sign-in to this browser: HttpOnly; SameSite=Lax; Path=/v1/sso/callback',
            schema: { type: 'string' },
          },
        },
      },
      handler: (ctx) =>
        orSignInPage(ctx, async () => {
          const started = await deps.signIn.start(ctx.query, {
            headers: ctx.headers,
            sourceIp: ctx.sourceIp,
            platformHost: ctx.platformHost,
          });
          return redirect(started.location, { 'set-cookie': started.setCookie });
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/sso/callback',
      auth: 'none',
      operationId: 'ssoCallback',
      tag,
      summary: 'Where the provider sends the browser back: signs in (Set-Cookie) and redirects to `next`',
      schemas: {
        query: ssoCallbackQuery,
        responses: { 302: null },
        responseHeaders: {
          ...LOCATION_HEADER,
          'Set-Cookie': {
            description:
              'The session cookie on success, with vigil_sso cleared; on a refusal, vigil_sso cleared',
            schema: { type: 'string' },
          },
        },
      },
      handler: (ctx) =>
        orSignInPage(
          ctx,
          async () => {
            const done = await deps.signIn.callback(ctx.query, {
              headers: ctx.headers,
              sourceIp: ctx.sourceIp,
            });
            const { user, created } = done.member;
            const actor: Actor = { type: 'user', id: user.id, label: user.email };
            return {
              // The session, and the login's browser binding cleared (its login is used up).
              ...redirect(done.location, {
                'set-cookie': joinSetCookies([
                  done.setCookie,
                  deps.signIn.clearCookie({ headers: ctx.headers }),
                ]),
              }),
              audit: {
                tenantId: user.tenant_id,
                actor,
                action: created ? 'member.create' : 'session.create',
                target: { type: 'user', id: user.id },
                summary: created ? `joined as ${user.role} via sso` : 'signed in via sso',
              },
            };
          },
          { 'set-cookie': deps.signIn.clearCookie({ headers: ctx.headers }) },
        ),
    }),
  ];
}
