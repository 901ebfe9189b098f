import { describe, expect, it } from 'vitest';
import { asItem, parseStoredItem, StoredItemError } from '../../lib/store/item-schema.ts';

describe('parseStoredItem', () => {
  it('accepts the generic shape and keeps every other attribute', () => {
    const item = { pk: 'p', sk: 's', entity: 'thing', gsi1pk: 'g', ttl: 5, any: { nested: [1] } };
    expect(parseStoredItem(item)).toEqual(item);
    expect(asItem(item)).toEqual(item);
  });

  it('accepts an item without schema_version (written before versions existed) and one with a positive integer', () => {
    const old = { pk: 'p', sk: 's', entity: 'thing' };
    expect(parseStoredItem(old)).toEqual(old);
    expect(parseStoredItem({ ...old, schema_version: 3 })).toEqual({ ...old, schema_version: 3 });
  });

  it.each([
    [null, 'must be an object'],
    [[], 'must be an object'],
    [{ sk: 's', entity: 'e' }, 'pk must be a string'],
    [{ pk: 'p', sk: 1, entity: 'e' }, 'sk must be a string'],
    [{ pk: 'p', sk: 's' }, 'entity must be a string'],
    [{ pk: 'p', sk: 's', entity: 'e', gsi2sk: 3 }, 'gsi2sk must be a string when present'],
    [{ pk: 'p', sk: 's', entity: 'e', ttl: '1' }, 'ttl must be a number'],
    [{ pk: 'p', sk: 's', entity: 'e', schema_version: 'x' }, 'schema_version must be a positive integer'],
    [{ pk: 'p', sk: 's', entity: 'e', schema_version: 0 }, 'schema_version must be a positive integer'],
    [{ pk: 'p', sk: 's', entity: 'e', schema_version: 1.5 }, 'schema_version must be a positive integer'],
    [{ pk: 'p', sk: 's', entity: 'e', schema_version: null }, 'schema_version must be a positive integer'],
  ])('refuses %j', (raw, message) => {
    expect(() => parseStoredItem(raw)).toThrow(StoredItemError);
    expect(() => parseStoredItem(raw)).toThrow(message);
    expect(asItem(raw)).toBeUndefined();
  });
});
