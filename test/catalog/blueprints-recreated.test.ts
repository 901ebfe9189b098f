import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BlueprintService,
  createBlueprintService,
} from '../../lib/catalog/blueprints/blueprint-service.ts';
import { createBlueprintStore } from '../../lib/catalog/blueprints/blueprint-store.ts';
import { createEntityService, type EntityService } from '../../lib/catalog/entities/entity-service.ts';
import { createEntityStore } from '../../lib/catalog/entities/entity-store.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { tenantPk } from '../../lib/store/partitions.ts';
import type { Table, UpdateOp, WriteOp } from '../../lib/store/table.ts';

const TENANT = 'tnt_01J00000000000000000000000';

/**
 * A blueprint deleted and created again under the same slug while a write that read the old one is
 * in flight: the write must not land on the new blueprint with what it read from the old one.
 */
describe('writes racing a blueprint deleted and created again under its slug', () => {
  let table: SqliteTable;
  let blueprints: BlueprintService;
  let entities: EntityService;
  /** Runs once, just before the next write that touches the blueprint item goes to the table. */
  let beforeWrite: (() => Promise<void>) | undefined;

  const touchesBlueprint = (op: WriteOp) => ('key' in op ? op.key.sk : op.item.sk) === 'BP#svc';

  beforeEach(async () => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    await table.transact([
      {
        type: 'put',
        item: {
          pk: tenantPk(TENANT),
          sk: '#TENANT',
          entity: 'tenant',
          schema_version: 1,
          blueprint_limit: 10,
          entity_limit_per_bp: 10,
        },
      },
    ]);
    const intercept = async (ops: WriteOp[]) => {
      const hook = beforeWrite;
      if (hook && ops.some(touchesBlueprint)) {
        beforeWrite = undefined;
        await hook();
      }
    };
    const racing: Table = {
      ...table,
      get: (key, options) => table.get(key, options),
      query: (input) => table.query(input),
      batchGet: (keys) => table.batchGet(keys),
      transact: async (ops) => {
        await intercept(ops);
        return table.transact(ops);
      },
      update: async (op: UpdateOp) => {
        await intercept([op]);
        return table.update(op);
      },
    };
    const clock = createFakeClock();
    const bpStore = createBlueprintStore(racing);
    blueprints = createBlueprintService({ table: racing, blueprints: bpStore, clock });
    entities = createEntityService({
      table: racing,
      blueprints: bpStore,
      entities: createEntityStore(racing),
      clock,
    });
    await blueprints.create(TENANT, {
      slug: 'svc',
      name: 'Old',
      description: '',
      fields: [{ name: 'old', field_type: 'string', required: false, sort_order: 0 }],
      is_default: false,
    });
  });
  afterEach(async () => {
    await table.close();
  });

  const recreate = async () => {
    await blueprints.remove(TENANT, 'svc');
    await blueprints.create(TENANT, {
      slug: 'svc',
      name: 'New',
      description: '',
      fields: [{ name: 'owner', field_type: 'string', required: true, sort_order: 0 }],
      is_default: false,
    });
  };

  it('adds a field to the new blueprint without bringing back the old one’s fields', async () => {
    beforeWrite = recreate;
    const result = await blueprints.addField(TENANT, 'svc', {
      name: 'tier',
      field_type: 'number',
      required: false,
      sort_order: 1,
    });
    expect(result.name).toBe('New');
    expect(result.fields.map((f) => f.name)).toEqual(['owner', 'tier']);
  });

  it('validates an entity against the new blueprint’s fields, not the ones it read', async () => {
    beforeWrite = recreate;
    await expect(
      entities.create(TENANT, 'svc', { slug: 'e1', name: 'E1', fields: {} }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(await entities.list(TENANT, 'svc')).toEqual([]);
    expect((await blueprints.get(TENANT, 'svc')).name).toBe('New');
  });
});
