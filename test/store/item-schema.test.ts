import { describe, expect, it } from 'vitest';
import { asItem, parseStoredItem, StoredItemError } from '../../lib/store/item-schema.ts';

describe('parseStoredItem', () => {
  it('accepts the generic shape and keeps every other attribute', () => {
    const item = { pk: 'p', sk: 's', entity: 'thing', gsi1pk: 'g', ttl: 5, any: { nested: [1] } };
    expect(parseStoredItem(item)).toEqual(item);
    expect(asItem(item)).toEqual(item);
  });

  it.each([
    [null, 'must be an object'],
    [[], 'must be an object'],
    [{ sk: 's', entity: 'e' }, 'pk must be a string'],
    [{ pk: 'p', sk: 1, entity: 'e' }, 'sk must be a string'],
    [{ pk: 'p', sk: 's' }, 'entity must be a string'],
    [{ pk: 'p', sk: 's', entity: 'e', gsi2sk: 3 }, 'gsi2sk must be a string when present'],
    [{ pk: 'p', sk: 's', entity: 'e', ttl: '1' }, 'ttl must be a number'],
  ])('refuses %j', (raw, message) => {
    expect(() => parseStoredItem(raw)).toThrow(StoredItemError);
    expect(() => parseStoredItem(raw)).toThrow(message);
    expect(asItem(raw)).toBeUndefined();
  });
});
