import type { EntityRecord } from '../../lib/catalog/entities/entity-items.ts';

/** Entity `api` ("API", no fields) of blueprint `svc`: unknown, version 1, created and updated `at`. */
export const apiEntity = (at: string): EntityRecord => ({
  id: 'ent_1',
  blueprint_slug: 'svc',
  slug: 'api',
  name: 'API',
  fields: {},
  state: 'unknown',
  created_at: at,
  updated_at: at,
  version: 1,
});
