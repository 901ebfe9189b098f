/**
 * The catalog's services and its API's schemas, as other folders use them (MCP, integrations, push
 * slugs, search, configuration as code): the blueprint and entity services, the entity search and
 * its key backfill, the request bodies and public response schemas. The items are entities.ts',
 * relations.ts' and blueprints.ts'; the composition is compose.ts.
 */

export { createBlueprintBody, createEntityBody, createRelationBody } from './api/request-schemas.ts';
export type { entityPageSchema, publicBlueprintSchema, publicRelationSchema } from './api/responses.ts';
export { publicEntitySchema } from './api/responses.ts';
export type { BlueprintService } from './blueprints/blueprint-service.ts';
export { createBlueprintService } from './blueprints/blueprint-service.ts';
export { ENTITY_PAGE_MAX } from './entities/entity-listing.ts';
export type { EntitySearch } from './entities/entity-search.ts';
export { createEntitySearch } from './entities/entity-search.ts';
export type { EntityService } from './entities/entity-service.ts';
export { createEntityService } from './entities/entity-service.ts';
export { backfillSearchKeys } from './entities/search-backfill.ts';
