import type { CursorSeal } from '../store/cursor-seal.ts';
import type { CatalogRouteDeps } from './api/routes.ts';
import { createBlueprintService } from './blueprints/blueprint-service.ts';
import { createEntityListing } from './entities/entity-listing.ts';
import { createEntitySearch } from './entities/entity-search.ts';
import { createEntityService, type EntityServiceDeps } from './entities/entity-service.ts';
import { createRelationStore } from './relations/relation-items.ts';
import { createRelationService } from './relations/relation-service.ts';

/** The catalog's services over one table, as its routes take them (the composition root calls it). */
export function catalogServices(deps: EntityServiceDeps & { cursors: CursorSeal }): CatalogRouteDeps {
  const { table, cursors } = deps;
  return {
    blueprintService: createBlueprintService(deps),
    entityService: createEntityService(deps),
    relationService: createRelationService({ ...deps, relations: createRelationStore(table) }),
    entityListing: createEntityListing({ ...deps, search: createEntitySearch({ table, cursors }) }),
  };
}

export { catalogRoutes } from './api/routes.ts';
