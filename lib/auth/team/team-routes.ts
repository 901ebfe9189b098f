import * as z from 'zod';
import { ROLES } from '../../domain/principal.ts';
import { defineRoute } from '../../http/define-route.ts';
import { refuseCrossSiteSignIn } from '../../http/policies.ts';
import { idSchema } from '../../http/route-schemas.ts';
import { created, noContent, ok, type Route } from '../../http/types.ts';
import { keyPrefix } from '../api-key.ts';
import type { RateLimitGuard } from '../limits/rate-limit.ts';
import { isInvalidInvitationToken } from './team-accept.ts';
import { acceptedSchema, createdInvitationSchema, teamListSchema } from './team-responses.ts';
import type { TeamService } from './team-service.ts';

const inviteBody = z.strictObject({
  // Trimmed and lower-cased first; the document shows the address as z.email() checks it.
  email: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z.email().max(254),
  ),
  role: z.enum(ROLES).default('member'),
});

const acceptBody = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(100).optional(),
  // Checked by the password policy (10 to 128 characters, not common, not the e-mail).
  password: z.string().max(1024).optional(),
});

const tag = 'Team';

/** The /v1/settings/users routes: list, invite, accept (no key) and remove. */
export function teamRoutes(deps: {
  teamService: TeamService;
  /** Wrong invitation tokens count as failed authentications of the caller's address. */
  limits: Pick<RateLimitGuard, 'attempt'>;
  /** Signs in a member who accepted with a password: the session cookie (lib/people). */
  signIn?: (
    who: { tenantId: string; userId: string },
    req: { headers: Record<string, string>; sourceIp?: string | undefined },
  ) => Promise<{ setCookie: string }>;
  /** VIGIL_PUBLIC_URL: an accept that signs in refuses another site's Origin (lib/http/policies/csrf.ts). */
  publicUrl?: string | undefined;
}): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/settings/users',
      auth: 'key',
      // Member e-mails are personal data; read-only keys (dashboards) have no use for them.
      denyReadOnly: true,
      operationId: 'listTeam',
      tag,
      summary: 'List team members (status active) and pending invitations (status pending)',
      schemas: { responses: { 200: teamListSchema } },
      handler: async ({ principal }) => ok(await deps.teamService.list(principal)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/settings/users/invite',
      auth: 'key',
      role: 'admin',
      operationId: 'inviteTeamMember',
      tag,
      summary: 'Invite a team member; the invitation token is in this response only',
      schemas: { body: inviteBody, responses: { 201: createdInvitationSchema }, errors: ['CONFLICT'] },
      handler: async ({ principal, body }) => created(await deps.teamService.invite(principal, body)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/settings/users/accept',
      auth: 'none',
      operationId: 'acceptInvitation',
      tag,
      summary:
        'Accept an invitation (no API key); returns the new member and their first API key once; with a password, also a session cookie',
      // An unknown, used or expired token is a VALIDATION_ERROR on `token`.
      schemas: {
        body: acceptBody,
        responses: { 201: acceptedSchema },
        responseHeaders: {
          'Set-Cookie': {
            description:
              'With a password: the session cookie (vigil_session; HttpOnly; SameSite=Lax; Path=/)',
            schema: { type: 'string' },
          },
        },
        // 403: a password accept from another site's page (login CSRF, lib/http/policies/csrf.ts).
        errors: ['ACCOUNT_DISABLED', 'CONFLICT', 'FORBIDDEN'],
      },
      handler: async (ctx) => {
        if (ctx.body.password !== undefined) refuseCrossSiteSignIn(ctx.headers, deps.publicUrl);
        const accept = () => deps.teamService.accept(ctx.body);
        const token = keyPrefix(ctx.body.token);
        const { password, ...accepted } = await deps.limits.attempt(
          ctx,
          token,
          accept,
          isInvalidInvitationToken,
        );
        const who = { tenantId: accepted.tenant_id, userId: accepted.user.id };
        const session = password && deps.signIn ? await deps.signIn(who, ctx) : undefined;
        return {
          ...created(accepted),
          ...(session ? { headers: { 'set-cookie': session.setCookie } } : {}),
          audit: {
            tenantId: who.tenantId,
            actor: { type: 'user', id: who.userId, label: accepted.user.email },
            action: 'invitation.accept',
            target: { type: 'user', id: who.userId },
          },
        };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/settings/users/{id}',
      auth: 'key',
      role: 'admin',
      operationId: 'removeTeamMember',
      tag,
      summary: 'Remove a team member (revoking their keys) or cancel a pending invitation',
      schemas: {
        params: z.object({ id: idSchema('usr', 'inv') }),
        responses: { 204: null },
        // The last admin of an account cannot be removed.
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params }) => {
        await deps.teamService.remove(principal, params.id);
        return noContent();
      },
    }),
  ];
}
