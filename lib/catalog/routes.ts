import { type AuthedRoute, created, noContent, ok } from '../http/types.ts';
import { parseInput } from '../http/validation.ts';
import type { BlueprintService } from './blueprint-service.ts';
import type { EntityService } from './entity-service.ts';
import type { RelationService } from './relation-service.ts';
import {
  addFieldBody,
  createBlueprintBody,
  createEntityBody,
  createRelationBody,
  listRelationsQuery,
  updateEntityBody,
} from './request-schemas.ts';

export interface CatalogRouteDeps {
  blueprintService: BlueprintService;
  entityService: EntityService;
  relationService: RelationService;
}

/** The /v1/blueprints, /v1/blueprints/{blueprint_slug}/entities and /v1/relations routes. */
export function catalogRoutes(deps: CatalogRouteDeps): AuthedRoute[] {
  const { blueprintService: blueprints, entityService: entities, relationService: relations } = deps;
  return [
    {
      method: 'GET',
      path: '/v1/blueprints',
      auth: 'key',
      summary: 'List blueprints (by slug)',
      handler: async ({ principal }) => ok(await blueprints.list(principal.tenantId)),
    },
    {
      method: 'POST',
      path: '/v1/blueprints',
      auth: 'key',
      summary: 'Create a blueprint (plan limit blueprint_limit)',
      handler: async ({ principal, body }) =>
        created(await blueprints.create(principal.tenantId, parseInput(createBlueprintBody, body))),
    },
    {
      method: 'GET',
      path: '/v1/blueprints/{slug}',
      auth: 'key',
      summary: 'Get a blueprint',
      handler: async ({ principal, params }) =>
        ok(await blueprints.get(principal.tenantId, params.slug ?? '')),
    },
    {
      method: 'POST',
      path: '/v1/blueprints/{slug}/fields',
      auth: 'key',
      summary: 'Add a field definition; returns the blueprint',
      handler: async ({ principal, params, body }) =>
        created(
          await blueprints.addField(principal.tenantId, params.slug ?? '', parseInput(addFieldBody, body)),
        ),
    },
    {
      method: 'GET',
      path: '/v1/blueprints/{blueprint_slug}/entities',
      auth: 'key',
      summary: 'List the entities of a blueprint (by slug)',
      handler: async ({ principal, params }) =>
        ok(await entities.list(principal.tenantId, params.blueprint_slug ?? '')),
    },
    {
      method: 'POST',
      path: '/v1/blueprints/{blueprint_slug}/entities',
      auth: 'key',
      summary: 'Create an entity (plan limit entity_limit_per_bp)',
      handler: async ({ principal, params, body }) =>
        created(
          await entities.create(
            principal.tenantId,
            params.blueprint_slug ?? '',
            parseInput(createEntityBody, body),
          ),
        ),
    },
    {
      method: 'GET',
      path: '/v1/blueprints/{blueprint_slug}/entities/{slug}',
      auth: 'key',
      summary: 'Get an entity',
      handler: async ({ principal, params }) =>
        ok(await entities.get(principal.tenantId, params.blueprint_slug ?? '', params.slug ?? '')),
    },
    {
      method: 'PUT',
      path: '/v1/blueprints/{blueprint_slug}/entities/{slug}',
      auth: 'key',
      summary: 'Update an entity with a JSON merge patch of name and fields',
      handler: async ({ principal, params, body }) =>
        ok(
          await entities.update(
            principal.tenantId,
            params.blueprint_slug ?? '',
            params.slug ?? '',
            parseInput(updateEntityBody, body ?? {}),
          ),
        ),
    },
    {
      method: 'DELETE',
      path: '/v1/blueprints/{blueprint_slug}/entities/{slug}',
      auth: 'key',
      summary: 'Delete an entity; its checks and relations are purged asynchronously',
      handler: async ({ principal, params }) => {
        await entities.remove(principal.tenantId, params.blueprint_slug ?? '', params.slug ?? '');
        return noContent();
      },
    },
    {
      method: 'GET',
      path: '/v1/relations',
      auth: 'key',
      summary: 'List relations (optionally ?entity_id= for one entity, either end)',
      handler: async ({ principal, query }) => {
        const { entity_id } = parseInput(listRelationsQuery, query, 'query');
        return ok(await relations.list(principal.tenantId, { entityId: entity_id }));
      },
    },
    {
      method: 'POST',
      path: '/v1/relations',
      auth: 'key',
      summary: 'Create a relation between two entities',
      handler: async ({ principal, body }) =>
        created(await relations.create(principal.tenantId, parseInput(createRelationBody, body))),
    },
    {
      method: 'DELETE',
      path: '/v1/relations/{id}',
      auth: 'key',
      summary: 'Delete a relation',
      handler: async ({ principal, params }) => {
        await relations.remove(principal.tenantId, params.id ?? '');
        return noContent();
      },
    },
  ];
}
