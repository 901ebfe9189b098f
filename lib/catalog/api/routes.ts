import * as z from 'zod';
import { slugSchema } from '../../domain/formats.ts';
import { defineRoute } from '../../http/define-route.ts';
import { answerOk, createRoute, deleteRoute, readRoute } from '../../http/handlers.ts';
import { idSchema, namesResource } from '../../http/route-schemas.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import type { BlueprintService } from '../blueprints/blueprint-service.ts';
import type { EntityListing } from '../entities/entity-listing.ts';
import type { EntityService } from '../entities/entity-service.ts';
import type { RelationService } from '../relations/relation-service.ts';
import {
  addFieldBody,
  createBlueprintBody,
  createEntityBody,
  createRelationBody,
  listEntitiesQuery,
  listRelationsQuery,
  stateRuleSchema,
  updateEntityBody,
} from './request-schemas.ts';
import {
  entityPageSchema,
  publicBlueprintSchema,
  publicEntitySchema,
  publicRelationSchema,
} from './responses.ts';

export interface CatalogRouteDeps {
  blueprintService: BlueprintService;
  entityService: EntityService;
  relationService: RelationService;
  entityListing: EntityListing;
}

const blueprintSlug = namesResource(slugSchema(), 'blueprint');
const entitySlug = namesResource(slugSchema(), 'entity');
const blueprintParams = z.object({ slug: blueprintSlug });
const entitiesParams = z.object({ blueprint_slug: blueprintSlug });
const entityParams = z.object({ blueprint_slug: blueprintSlug, slug: entitySlug });
const relationParams = z.object({ id: idSchema('rel') });
const tag = 'Catalog';

/** PUT /v1/blueprints/{slug}: the attributes given change; slug and fields do not (400). */
const updateBlueprintBody = z.strictObject({
  name: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  is_default: z
    .boolean()
    .optional()
    .meta({ description: "true makes this the tenant's default blueprint; false clears the default" }),
  state_rule: stateRuleSchema.optional(),
});

/** The /v1/blueprints, /v1/blueprints/{blueprint_slug}/entities, /v1/entities and /v1/relations routes. */
export function catalogRoutes(deps: CatalogRouteDeps): AuthedRoute[] {
  const { blueprintService: blueprints, entityService: entities, relationService: relations } = deps;
  const listing = deps.entityListing;
  return [
    readRoute({
      path: '/v1/blueprints',
      operationId: 'listBlueprints',
      tag,
      summary: 'List blueprints (by slug)',
      response: z.array(publicBlueprintSchema),
      read: (tenantId) => blueprints.list(tenantId),
    }),
    createRoute({
      path: '/v1/blueprints',
      operationId: 'createBlueprint',
      tag,
      summary: 'Create a blueprint (plan limit blueprint_limit)',
      body: createBlueprintBody,
      response: publicBlueprintSchema,
      errors: ['CONFLICT', 'LIMIT_EXCEEDED'],
      create: (tenantId, { body }) => blueprints.create(tenantId, body),
    }),
    readRoute({
      path: '/v1/blueprints/{slug}',
      operationId: 'getBlueprint',
      tag,
      summary: 'Get a blueprint',
      params: blueprintParams,
      response: publicBlueprintSchema,
      read: (tenantId, { params }) => blueprints.get(tenantId, params.slug),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/blueprints/{slug}',
      auth: 'key',
      operationId: 'updateBlueprint',
      tag,
      summary: 'Change the name, description or default flag of a blueprint',
      schemas: {
        params: blueprintParams,
        body: updateBlueprintBody,
        responses: { 200: publicBlueprintSchema },
        // CONFLICT: the default blueprint moved concurrently too often.
        errors: ['CONFLICT'],
      },
      handler: answerOk((tenantId, { params, body }) => blueprints.update(tenantId, params.slug, body)),
    }),
    deleteRoute({
      path: '/v1/blueprints/{slug}',
      operationId: 'deleteBlueprint',
      tag,
      summary: 'Delete a blueprint that holds no entities (409 CONFLICT while it does)',
      params: blueprintParams,
      errors: ['CONFLICT'],
      remove: (tenantId, params) => blueprints.remove(tenantId, params.slug),
    }),
    createRoute({
      path: '/v1/blueprints/{slug}/fields',
      operationId: 'addBlueprintField',
      tag,
      summary: 'Add a field definition; returns the blueprint',
      params: blueprintParams,
      body: addFieldBody,
      response: publicBlueprintSchema,
      errors: ['CONFLICT', 'LIMIT_EXCEEDED'],
      create: (tenantId, { params, body }) => blueprints.addField(tenantId, params.slug, body),
    }),
    readRoute({
      path: '/v1/blueprints/{blueprint_slug}/entities',
      operationId: 'listEntities',
      tag,
      summary: 'List the entities of a blueprint (by slug)',
      params: entitiesParams,
      response: z.array(publicEntitySchema),
      read: (tenantId, { params }) => entities.list(tenantId, params.blueprint_slug),
    }),
    readRoute({
      path: '/v1/entities',
      operationId: 'searchEntities',
      tag,
      summary: 'List entities a page at a time (?q= name or slug prefix, ?blueprint_slug=)',
      query: listEntitiesQuery,
      response: entityPageSchema,
      errors: ['NOT_FOUND'],
      read: (tenantId, { query }) => listing.list(tenantId, query),
    }),
    createRoute({
      path: '/v1/blueprints/{blueprint_slug}/entities',
      operationId: 'createEntity',
      tag,
      summary: 'Create an entity (plan limit entity_limit_per_bp)',
      params: entitiesParams,
      body: createEntityBody,
      response: publicEntitySchema,
      errors: ['CONFLICT', 'LIMIT_EXCEEDED'],
      create: (tenantId, { params, body }) => entities.create(tenantId, params.blueprint_slug, body),
    }),
    readRoute({
      path: '/v1/blueprints/{blueprint_slug}/entities/{slug}',
      operationId: 'getEntity',
      tag,
      summary: 'Get an entity',
      params: entityParams,
      response: publicEntitySchema,
      read: (tenantId, { params }) => entities.get(tenantId, params.blueprint_slug, params.slug),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/blueprints/{blueprint_slug}/entities/{slug}',
      auth: 'key',
      operationId: 'updateEntity',
      tag,
      summary: 'Update an entity with a JSON merge patch of name and fields',
      schemas: {
        params: entityParams,
        body: updateEntityBody.default({}),
        responses: { 200: publicEntitySchema },
        errors: ['CONFLICT'],
      },
      handler: answerOk((tenantId, { params, body }) =>
        entities.update(tenantId, params.blueprint_slug, params.slug, body),
      ),
    }),
    deleteRoute({
      path: '/v1/blueprints/{blueprint_slug}/entities/{slug}',
      operationId: 'deleteEntity',
      tag,
      summary: 'Delete an entity; its checks and relations are purged asynchronously',
      params: entityParams,
      remove: (tenantId, params) => entities.remove(tenantId, params.blueprint_slug, params.slug),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/relations',
      auth: 'key',
      operationId: 'listRelations',
      tag,
      summary:
        'List relations, their ends named (?entity_id= and ?hops= for a neighbourhood, ?blueprint_slug=, ?relation_type=)',
      schemas: {
        query: listRelationsQuery,
        responses: { 200: z.array(publicRelationSchema) },
        // An entity_id that names no entity of the tenant.
        errors: ['NOT_FOUND'],
      },
      handler: async ({ principal, query }) =>
        ok(
          await relations.list(principal.tenantId, {
            entityId: query.entity_id,
            dependentsOf: query.dependents_of,
            hops: query.hops,
            blueprintSlug: query.blueprint_slug,
            relationType: query.relation_type,
          }),
        ),
    }),
    createRoute({
      path: '/v1/relations',
      operationId: 'createRelation',
      tag,
      summary: 'Create a relation between two entities',
      body: createRelationBody,
      response: publicRelationSchema,
      // NOT_FOUND: an entity id of the body names no entity of the tenant.
      errors: ['NOT_FOUND', 'CONFLICT'],
      create: (tenantId, { body }) => relations.create(tenantId, body),
    }),
    deleteRoute({
      path: '/v1/relations/{id}',
      operationId: 'deleteRelation',
      tag,
      summary: 'Delete a relation',
      params: relationParams,
      remove: (tenantId, params) => relations.remove(tenantId, params.id),
    }),
  ];
}
