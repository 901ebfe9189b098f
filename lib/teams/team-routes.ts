import { defineRoute } from '../http/define-route.ts';
import { type AuthedRoute, created, noContent, ok } from '../http/types.ts';
import { publicTeamSchema, teamListSchema, teamRelationSchema, whoIsOnCallSchema } from './team-responses.ts';
import { ownedEntityBody, teamBody, teamEntityParams, teamParams, whoQuery } from './team-schemas.ts';
import type { TeamService } from './team-service.ts';
import type { WhoService } from './who-service.ts';

const tag = 'On-call';

/**
 * /v1/teams and /v1/oncall (docs/on-call.md "Teams and who is on call"): everyone reads teams and
 * asks who is on call; admins create, replace and delete teams and say which entities they own.
 */
export function teamRoutes(deps: { teams: TeamService; who: WhoService }): AuthedRoute[] {
  const { teams, who } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/teams',
      auth: 'key',
      operationId: 'listTeams',
      tag,
      summary: 'The tenant’s teams, oldest first, with the entities each owns',
      schemas: { responses: { 200: teamListSchema } },
      handler: async ({ principal }) => ok({ teams: await teams.list(principal.tenantId) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/teams',
      auth: 'key',
      role: 'admin',
      operationId: 'createTeam',
      tag,
      summary: 'Create a team: members, its on-call schedule, the blueprints it owns by default',
      schemas: { body: teamBody, responses: { 201: publicTeamSchema }, errors: ['LIMIT_EXCEEDED'] },
      handler: async ({ principal, body }) => created(await teams.create(principal.tenantId, body)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/teams/{id}',
      auth: 'key',
      operationId: 'getTeam',
      tag,
      summary: 'One team, its members and the entities it owns',
      schemas: { params: teamParams, responses: { 200: publicTeamSchema } },
      handler: async ({ principal, params }) => ok(await teams.get(principal.tenantId, params.id)),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/teams/{id}',
      auth: 'key',
      role: 'admin',
      operationId: 'replaceTeam',
      tag,
      summary: 'Replace a team (the entities it owns stay)',
      schemas: {
        params: teamParams,
        body: teamBody,
        responses: { 200: publicTeamSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        ok(await teams.replace(principal.tenantId, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/teams/{id}',
      auth: 'key',
      role: 'admin',
      operationId: 'deleteTeam',
      tag,
      summary: 'Delete a team and its owned_by relations',
      schemas: { params: teamParams, responses: { 204: null } },
      handler: async ({ principal, params }) => {
        await teams.remove(principal.tenantId, params.id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/teams/{id}/entities',
      auth: 'key',
      role: 'admin',
      operationId: 'addTeamEntity',
      tag,
      summary: 'The team owns this entity: an owned_by relation from the entity to the team',
      schemas: {
        params: teamParams,
        body: ownedEntityBody,
        responses: { 201: teamRelationSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        created(await teams.own(principal.tenantId, params.id, body.entity_id)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/teams/{id}/entities/{entity_id}',
      auth: 'key',
      role: 'admin',
      operationId: 'deleteTeamEntity',
      tag,
      summary: 'The team no longer owns this entity (its owned_by relation is deleted)',
      schemas: { params: teamEntityParams, responses: { 204: null } },
      handler: async ({ principal, params }) => {
        await teams.disown(principal.tenantId, params.id, params.entity_id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/oncall',
      auth: 'key',
      operationId: 'whoIsOnCall',
      tag,
      summary:
        'Who is on call for an entity (its owning teams), a team or a schedule (none: every team), at `at` (default now), with the path taken',
      schemas: { query: whoQuery, responses: { 200: whoIsOnCallSchema }, errors: ['NOT_FOUND'] },
      handler: async ({ principal, query }) => ok(await who.whoIsOnCall(principal.tenantId, query)),
    }),
  ];
}
