import { z } from 'zod';
import { created, noContent, ok, type Route } from '../http/types.ts';
import { parseInput } from '../http/validation.ts';
import type { TeamService } from './team-service.ts';

const inviteBody = z.strictObject({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  role: z.enum(['admin', 'member']).default('member'),
});

const acceptBody = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().trim().min(1).max(100),
});

/** The /v1/settings/users routes: list, invite, accept (no key) and remove. */
export function teamRoutes(deps: { teamService: TeamService }): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/settings/users',
      auth: 'key',
      // Member e-mails are personal data; read-only keys (dashboards) have no use for them.
      denyReadOnly: true,
      summary: 'List team members (status active) and pending invitations (status pending)',
      handler: async ({ principal }) => ok(await deps.teamService.list(principal)),
    },
    {
      method: 'POST',
      path: '/v1/settings/users/invite',
      auth: 'key',
      role: 'admin',
      summary: 'Invite a team member; the invitation token is in this response only',
      handler: async ({ principal, body }) =>
        created(await deps.teamService.invite(principal, parseInput(inviteBody, body))),
    },
    {
      method: 'POST',
      path: '/v1/settings/users/accept',
      auth: 'none',
      summary: 'Accept an invitation (no API key); returns the new member and their first API key once',
      handler: async ({ body }) => created(await deps.teamService.accept(parseInput(acceptBody, body))),
    },
    {
      method: 'DELETE',
      path: '/v1/settings/users/{id}',
      auth: 'key',
      role: 'admin',
      summary: 'Remove a team member (revoking their keys) or cancel a pending invitation',
      handler: async ({ principal, params }) => {
        await deps.teamService.remove(principal, params.id ?? '');
        return noContent();
      },
    },
  ];
}
