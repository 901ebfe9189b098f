import { describe, expect, it } from 'vitest';
import { entityPurgeJobOp } from '../../lib/purge/purge-job-items.ts';
import { itemType, stamp } from '../../lib/store/item-type.ts';
import { withoutKeys } from '../../lib/store/items.ts';

describe('item types', () => {
  it('defines a frozen type at version 1 unless told otherwise', () => {
    const type = itemType('widget');
    expect(type).toEqual({ entity: 'widget', version: 1 });
    expect(Object.isFrozen(type)).toBe(true);
    expect(itemType('widget', 2).version).toBe(2);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses version %s', (version) => {
    expect(() => itemType('widget', version)).toThrow(RangeError);
  });

  it('stamps an item with its entity and schema_version', () => {
    expect(stamp(itemType('widget', 4))).toEqual({ entity: 'widget', schema_version: 4 });
  });

  it('strips entity and schema_version with the other storage attributes', () => {
    const item = { pk: 'p', sk: 's', ...stamp(itemType('widget')), ttl: 9, version: 7, name: 'w' };
    expect(withoutKeys(item)).toEqual({ version: 7, name: 'w' });
  });

  it('builds the entity purge job in lib/purge, stamped as a purge_job', () => {
    expect(entityPurgeJobOp('ten_1', 'ent_1')).toEqual({
      type: 'put',
      item: {
        pk: 'PURGE#ten_1',
        sk: 'ENTITY#ent_1',
        entity: 'purge_job',
        schema_version: 1,
        tenant_id: 'ten_1',
        kind: 'entity',
        entity_id: 'ent_1',
        round: 0,
      },
    });
  });
});
