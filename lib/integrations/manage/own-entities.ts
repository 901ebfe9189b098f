import type { BlueprintService, EntityService } from '../../catalog/services.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { INTEGRATION_BLUEPRINT } from '../own-blueprint.ts';
import type { IntegrationCatalog } from './integration-service.ts';

/**
 * Integrations' own entities in the catalog: each in the blueprint `integration`, made the first
 * time a tenant makes an integration (no fields; a tenant may add some), so an alert its rules
 * place nowhere has an entity to be on, with the graph, incidents and status pages that go with
 * one. Removing an integration removes its entity, whose checks go with it (the purge).
 */

const BLUEPRINT = INTEGRATION_BLUEPRINT;

export function catalogOwnEntities(deps: {
  blueprints: Pick<BlueprintService, 'get' | 'create'>;
  entities: Pick<EntityService, 'create' | 'remove'>;
}): IntegrationCatalog {
  const ensureBlueprint = async (tenantId: string) => {
    try {
      await deps.blueprints.get(tenantId, BLUEPRINT);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      try {
        await deps.blueprints.create(tenantId, {
          slug: BLUEPRINT,
          name: 'Integration',
          description:
            'Where an integration’s outside alerts land when its rules name no entity (docs/integrations.md)',
          fields: [],
          is_default: false,
        });
      } catch (raced) {
        // Made meanwhile by another integration's create: it is there, which is all this wants.
        if (!(raced instanceof ConflictError)) throw raced;
      }
    }
  };
  return {
    async createOwnEntity(tenantId, slug, name) {
      await ensureBlueprint(tenantId);
      const entity = await deps.entities.create(tenantId, BLUEPRINT, { slug, name, fields: {} });
      return entity.id;
    },
    async removeOwnEntity(tenantId, slug) {
      try {
        await deps.entities.remove(tenantId, BLUEPRINT, slug);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    },
  };
}
