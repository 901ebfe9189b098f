import { describe, expect, it } from 'vitest';
import {
  checkFieldDefinitions,
  defaultOf,
  type FieldDefinition,
  fieldDefinitionSchema,
  sortFields,
} from '../../lib/domain/catalog/blueprint-fields.ts';

const field = (name: string, more: Partial<FieldDefinition> = {}): FieldDefinition => ({
  name,
  field_type: 'string',
  required: false,
  sort_order: 0,
  ...more,
});

describe('fieldDefinitionSchema', () => {
  it('defaults required to false and sort_order to 0', () => {
    expect(fieldDefinitionSchema.parse({ name: 'region', field_type: 'string' })).toEqual(field('region'));
  });

  it.each(['', '1st', 'has space', 'a.b', 'x'.repeat(65)])('rejects the field name %j', (name) => {
    expect(fieldDefinitionSchema.safeParse({ name, field_type: 'string' }).success).toBe(false);
  });

  it('rejects unknown keys and unknown types', () => {
    expect(fieldDefinitionSchema.safeParse({ name: 'a', field_type: 'string', colour: 'red' }).success).toBe(
      false,
    );
    expect(fieldDefinitionSchema.safeParse({ name: 'a', field_type: 'date' }).success).toBe(false);
  });
});

describe('checkFieldDefinitions', () => {
  it('accepts unique names with parseable defaults', () => {
    expect(
      checkFieldDefinitions([
        field('port', { field_type: 'number', default_value: '443' }),
        field('tls', { field_type: 'boolean', default_value: 'true' }),
      ]),
    ).toEqual([]);
  });

  it('names duplicate field names by index', () => {
    expect(checkFieldDefinitions([field('a'), field('b'), field('a')])).toEqual([
      { path: 'fields.2.name', message: 'Another field is already named a.' },
    ]);
  });

  it('names a default_value that does not parse as its type', () => {
    const issues = checkFieldDefinitions([
      field('ok'),
      field('port', { field_type: 'number', default_value: 'x' }),
    ]);
    expect(issues.map((i) => i.path)).toEqual(['fields.1.default_value']);
  });
});

describe('sortFields', () => {
  it('orders by sort_order, then name', () => {
    const sorted = sortFields([
      field('b', { sort_order: 2 }),
      field('z', { sort_order: 1 }),
      field('a', { sort_order: 2 }),
    ]);
    expect(sorted.map((f) => f.name)).toEqual(['z', 'a', 'b']);
  });
});

describe('defaultOf', () => {
  it('parses the default by type and is undefined without one', () => {
    expect(defaultOf(field('n', { field_type: 'number', default_value: '7' }))).toBe(7);
    expect(defaultOf(field('tags', { field_type: 'array', default_value: '["x"]' }))).toEqual(['x']);
    expect(defaultOf(field('n'))).toBeUndefined();
  });
});
