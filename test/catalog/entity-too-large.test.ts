import { describe, expect, it } from 'vitest';
import type { BlueprintRecord } from '../../lib/catalog/blueprints/blueprint-items.ts';
import type { BlueprintStore } from '../../lib/catalog/blueprints/blueprint-store.ts';
import { createEntityService } from '../../lib/catalog/entities/entity-service.ts';
import type { EntityStore } from '../../lib/catalog/entities/entity-store.ts';
import { ValidationError } from '../../lib/platform/errors.ts';
import { type Item, ItemTooLargeError, type Table } from '../../lib/store/table.ts';
import { apiEntity } from './entity-fixture.ts';

const at = '2026-11-22T08:00:00.000Z';
const blueprint: BlueprintRecord = {
  id: 'bp_1',
  slug: 'svc',
  name: 'Service',
  description: '',
  fields: [{ name: 'owner', field_type: 'string', required: false, sort_order: 0 }],
  is_default: false,
  created_at: at,
  updated_at: at,
  entity_count: 0,
  version: 1,
};
const entity = apiEntity(at);

/** A table whose every write is refused as too large by the engine. */
function refusingTable(): Table {
  return {
    get: async (): Promise<Item> => ({
      pk: 't',
      sk: 't',
      entity: 'tenant',
      blueprint_limit: 10,
      entity_limit_per_bp: 10,
    }),
    batchGet: async () => [],
    query: async () => ({ items: [] }),
    transact: async () => {
      throw new ItemTooLargeError('item size has exceeded the maximum allowed size');
    },
    update: async () => {
      throw new ItemTooLargeError('item size has exceeded the maximum allowed size');
    },
    close: async () => {},
  };
}

describe('entity writes an engine refuses as too large', () => {
  const service = createEntityService({
    table: refusingTable(),
    blueprints: { require: async () => blueprint } as unknown as BlueprintStore,
    entities: { get: async () => entity } as unknown as EntityStore,
    clock: { now: () => Date.parse(at) },
  });

  it('answers a create with VALIDATION_ERROR naming fields', async () => {
    const created = service.create('ten_1', 'svc', { slug: 'web', name: 'Web', fields: { owner: 'a' } });
    await expect(created).rejects.toBeInstanceOf(ValidationError);
    await expect(created).rejects.toMatchObject({ status: 400, details: [{ path: 'fields' }] });
  });

  it('answers an update with VALIDATION_ERROR', async () => {
    const updated = service.update('ten_1', 'svc', 'api', { fields: { owner: 'b' } });
    await expect(updated).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });
});
