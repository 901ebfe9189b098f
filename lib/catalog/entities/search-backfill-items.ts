import { migrationMarker } from '../../store/marked-migration.ts';

/**
 * The marker of the entity search keys' backfill (lib/catalog/entities/search-backfill.ts): written once
 * every tenant's id pointers carry their name and search index keys, so later runs read only it.
 */
export const searchKeysMarker = migrationMarker('entity-search-keys', 'pointers_named', true);
