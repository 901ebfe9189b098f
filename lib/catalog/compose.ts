import type { CursorSeal } from '../store/cursor-seal.ts';
import { createBlueprintService } from './blueprint-service.ts';
import { createEntityListing } from './entity-listing.ts';
import { createEntitySearch } from './entity-search.ts';
import { createEntityService, type EntityServiceDeps } from './entity-service.ts';
import { createRelationStore } from './relation-items.ts';
import { createRelationService } from './relation-service.ts';
import type { CatalogRouteDeps } from './routes.ts';

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
