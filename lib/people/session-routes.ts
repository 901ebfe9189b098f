import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { joinSetCookies, refuseCrossSiteSignIn } from '../http/policies.ts';
import { parseInput, parseJsonBody } from '../http/requests.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import { noContent, ok, type PublicRoute, type Route } from '../http/types.ts';
import { NotFoundError, ReadOnlyError } from '../platform/errors.ts';
import { pick } from '../platform/pick.ts';
import type { createPasswordLogin } from './password-login.ts';
import { changePassword, type PasswordChangeDeps } from './sign-in/password-change.ts';
import type { SessionRecord } from './sign-in/session-items.ts';
import type { SessionService } from './sign-in/session-service.ts';

const signInBody = z.strictObject({
  email: z.string().trim().min(1).max(254),
  // Long enough for any password the policy allows (128 characters), bounded against abuse.
  password: z.string().min(1).max(1024),
  totp: z.string().trim().min(1).max(64).optional(),
  tenant: idSchema('tnt')
    .optional()
    .meta({ description: 'The team to sign in to, when the e-mail is in several' }),
  link: z.string().trim().min(1).max(128).optional().meta({
    description:
      'The token of the sign-in link e-mailed after repeated wrong codes (`?link=` of its URL): with it a locked account takes one code from this browser',
  }),
});

const passwordBody = z.strictObject({
  current_password: z.string().min(1).max(1024).optional(),
  // The policy (lib/people/password-policy.ts) bounds it to 128 characters and says why.
  password: z.string().max(1024),
});

const sessionSchema = z
  .strictObject({
    id: idSchema('ses'),
    method: z.enum(['password', 'sso']),
    created_at: timestampSchema,
    last_seen_at: timestampSchema,
    expires_at: timestampSchema,
    source_ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    current: z.boolean().meta({ description: 'The session this request was made with' }),
  })
  .meta({ id: 'Session' });

const setCookieHeader = {
  'Set-Cookie': {
    description: 'vigil_session: HttpOnly; SameSite=Lax; Path=/ (and Secure over https)',
    schema: { type: 'string' },
  },
};

const signInCookieHeader = {
  'Set-Cookie': {
    description:
      'vigil_session: HttpOnly; SameSite=Lax; Path=/; and vigil_device (this browser signed in before): HttpOnly; SameSite=Strict; Path=/v1/session; a year (Secure over https)',
    schema: { type: 'string' },
  },
};

const publicSession = (record: SessionRecord, currentId: string) => ({
  ...pick(record, ['id', 'method', 'created_at', 'last_seen_at', 'expires_at']),
  source_ip: record.source_ip ?? null,
  user_agent: record.user_agent ?? null,
  current: record.id === currentId,
});

const tag = 'Sessions';

/**
 * POST /v1/session: the handler checks the password through the failed-authentication limits and
 * reads the body inside that check, so a blocked address gets 429 whatever it sends; the document
 * shows the body it parses (`signInBody`).
 */
function signInRoute(
  login: ReturnType<typeof createPasswordLogin>,
  publicUrl: string | undefined,
): PublicRoute {
  const route = defineRoute({
    method: 'POST',
    path: '/v1/session',
    auth: 'none',
    limit: 'credential',
    operationId: 'signIn',
    tag,
    summary: 'Sign in with e-mail and password: a session cookie (the console)',
    schemas: {
      responses: { 204: null },
      responseHeaders: signInCookieHeader,
      // 401 wrong e-mail or password (the same for both); 403 the team signs in with SSO;
      // 400 on `totp` when a second factor is needed or wrong.
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'ACCOUNT_DISABLED', 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE'],
    },
    handler: async (ctx) => {
      refuseCrossSiteSignIn(ctx.headers, publicUrl);
      // A cookie sent along is ignored: every sign-in gets a new session (no fixation).
      const parse = () => parseInput(signInBody, parseJsonBody(ctx.rawBody));
      const result = await login.signIn(ctx, parse);
      const cookies = joinSetCookies([result.setCookie, result.deviceCookie]);
      return { status: 204, headers: { 'set-cookie': cookies }, audit: result.audit };
    },
  });
  return { ...route, schemas: { ...route.schemas, body: signInBody } };
}

/** Sign-in with a password, sign-out, and your sessions (docs/auth.md "Sessions"). */
export function sessionRoutes(deps: {
  sessions: SessionService;
  login: ReturnType<typeof createPasswordLogin>;
  passwords: PasswordChangeDeps;
  /** VIGIL_PUBLIC_URL: its origin may sign in besides the request's own (lib/http/policies/csrf.ts). */
  publicUrl: string | undefined;
}): Route[] {
  return [
    signInRoute(deps.login, deps.publicUrl),
    defineRoute({
      method: 'DELETE',
      path: '/v1/session',
      auth: 'key',
      readsOnly: true,
      operationId: 'signOut',
      tag,
      summary: 'Sign out: ends the session of the cookie and clears it',
      schemas: { responses: { 204: null }, responseHeaders: setCookieHeader },
      handler: async (ctx) => {
        const { principal } = ctx;
        if (principal.credential === 'session')
          await deps.sessions.revoke(principal.tenantId, principal.userId, principal.keyId);
        return {
          status: 204,
          headers: { 'set-cookie': deps.sessions.clearCookie(ctx) },
          audit: { action: 'session.delete', target: { type: 'user', id: principal.userId } },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/sessions',
      auth: 'key',
      operationId: 'listSessions',
      tag,
      summary: 'Your console sessions (newest first)',
      schemas: { responses: { 200: z.array(sessionSchema) } },
      handler: async ({ principal }) => {
        const records = await deps.sessions.list(principal.tenantId, principal.userId);
        return ok(records.map((record) => publicSession(record, principal.keyId)));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/sessions/{id}',
      auth: 'key',
      readsOnly: true,
      operationId: 'revokeSession',
      tag,
      summary: 'End one of your sessions (another person’s is not found here)',
      schemas: { params: z.object({ id: idSchema('ses') }), responses: { 204: null }, errors: ['READ_ONLY'] },
      handler: async ({ principal, params }) => {
        // A viewer ends their sessions signed in; a read-only API key may not.
        if (principal.readOnly && principal.credential !== 'session') throw new ReadOnlyError();
        if (!(await deps.sessions.revoke(principal.tenantId, principal.userId, params.id)))
          throw new NotFoundError('session');
        return {
          ...noContent(),
          audit: { action: 'session.delete', target: { type: 'user', id: principal.userId } },
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/me/password',
      auth: 'key',
      // A viewer (read-only person) sets their own password too; read-only API keys may not (403).
      readsOnly: true,
      operationId: 'changePassword',
      tag,
      summary: 'Set or change your password (the current one when set); ends your other sessions',
      schemas: { body: passwordBody, responses: { 204: null }, errors: ['CONFLICT', 'READ_ONLY'] },
      handler: async (ctx) => {
        await changePassword(deps.passwords, ctx, ctx.principal, ctx.body);
        return {
          ...noContent(),
          audit: { action: 'password.change', target: { type: 'user', id: ctx.principal.userId } },
        };
      },
    }),
  ];
}
