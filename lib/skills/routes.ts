import * as z from 'zod';
import { slugSchema } from '../domain/formats.ts';
import { defineRoute } from '../http/define-route.ts';
import { deleteRoute } from '../http/handlers.ts';
import { namesResource } from '../http/route-schemas.ts';
import { type AuthedRoute, created, ok } from '../http/types.ts';
import { NotFoundError } from '../platform/errors.ts';
import { type CreateSkillBody, createSkillBody, updateSkillBody } from './manifest.ts';
import { publicSkill, publicSkillSchema } from './responses.ts';
import type { SkillService } from './skill-service.ts';

export interface SkillRouteDeps {
  skillService: SkillService;
  /** The built-in toolsets (lib/mcp's manifests, handed in by the app): POST /v1/skills/builtin/{toolset}. */
  toolsets: readonly CreateSkillBody[];
}

const skillParams = z.object({ slug: namesResource(slugSchema(), 'skill') });
const tag = 'Skills';

/**
 * The /v1/skills routes. Members read; writes need the admin role, because a skill binds actions
 * to tools and decides what an agent holding any of the tenant's keys may do.
 */
export function skillRoutes(deps: SkillRouteDeps): AuthedRoute[] {
  const { skillService: service } = deps;
  const toolsetParams = z.object({
    toolset: z
      .enum(deps.toolsets.map((t) => t.slug) as [string, ...string[]])
      .meta({ description: 'A built-in toolset (docs/mcp.md "Toolsets")' }),
  });
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/skills',
      auth: 'key',
      operationId: 'listSkills',
      tag,
      summary: 'The tenant’s skills, by slug',
      schemas: { responses: { 200: z.array(publicSkillSchema) } },
      handler: async ({ principal }) => ok((await service.list(principal.tenantId)).map(publicSkill)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/skills',
      auth: 'key',
      role: 'admin',
      operationId: 'createSkill',
      tag,
      summary:
        'Register a skill (admin role): its tool names must not be held by another enabled skill; a runbook tool’s action_id must name an action of the tenant',
      schemas: {
        body: createSkillBody,
        responses: { 201: publicSkillSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, body }) =>
        created(publicSkill(await service.create(principal.tenantId, body))),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/skills/builtin/{toolset}',
      auth: 'key',
      role: 'admin',
      operationId: 'enableBuiltinToolset',
      tag,
      summary:
        'Enable a built-in toolset in one step (admin role): registers its manifest under its slug (201), or gives the skill of that slug this version’s manifest and enables it (200)',
      schemas: {
        params: toolsetParams,
        body: z.strictObject({}).optional(),
        responses: { 200: publicSkillSchema, 201: publicSkillSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params }) => {
        const manifest = deps.toolsets.find((t) => t.slug === params.toolset);
        if (!manifest) throw new NotFoundError('toolset');
        const result = await service.enableToolset(principal.tenantId, manifest);
        return result.created ? created(publicSkill(result.skill)) : ok(publicSkill(result.skill));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/skills/{slug}',
      auth: 'key',
      operationId: 'getSkill',
      tag,
      summary: 'One skill',
      schemas: { params: skillParams, responses: { 200: publicSkillSchema } },
      handler: async ({ principal, params }) =>
        ok(publicSkill(await service.get(principal.tenantId, params.slug))),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/skills/{slug}',
      auth: 'key',
      role: 'admin',
      operationId: 'updateSkill',
      tag,
      summary:
        'Update a skill (admin role): the fields given change, tools as a whole; disabling frees its tool names, enabling claims them again',
      schemas: {
        params: skillParams,
        body: updateSkillBody,
        responses: { 200: publicSkillSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        ok(publicSkill(await service.update(principal.tenantId, params.slug, body))),
    }),
    deleteRoute({
      path: '/v1/skills/{slug}',
      role: 'admin',
      operationId: 'deleteSkill',
      tag,
      summary: 'Delete a skill (admin role) and free its tool names',
      params: skillParams,
      errors: ['CONFLICT'],
      remove: (tenantId, params) => service.remove(tenantId, params.slug),
    }),
  ];
}
