import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '../../lib/domain/catalog/blueprint-fields.ts';
import { applyFieldPatch, withDefaults } from '../../lib/domain/catalog/entity-fields.ts';

const defs: FieldDefinition[] = [
  { name: 'url', field_type: 'url', required: true, sort_order: 1 },
  { name: 'port', field_type: 'number', required: false, default_value: '443', sort_order: 2 },
  { name: 'tier', field_type: 'string', required: true, default_value: 'bronze', sort_order: 3 },
  { name: 'public', field_type: 'boolean', required: false, sort_order: 4 },
  { name: 'tags', field_type: 'array', required: false, sort_order: 5 },
];

describe('applyFieldPatch on create', () => {
  it('accepts valid values and fills defaults, in blueprint order', () => {
    const result = applyFieldPatch(defs, undefined, { tags: ['a'], url: 'https://x.example', public: true });
    expect(result).toEqual({
      ok: true,
      fields: { url: 'https://x.example', port: 443, tier: 'bronze', public: true, tags: ['a'] },
    });
    if (result.ok) expect(Object.keys(result.fields)).toEqual(['url', 'port', 'tier', 'public', 'tags']);
  });

  it('names every failing field: unknown, wrong type, missing required', () => {
    const result = applyFieldPatch(defs, undefined, { colour: 'red', port: '80', tags: [{}] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path).sort()).toEqual([
      'fields.colour',
      'fields.port',
      'fields.tags',
      'fields.url',
    ]);
    expect(result.issues.find((i) => i.path === 'fields.url')?.message).toBe('This field is required.');
  });

  it('treats null as not given', () => {
    const result = applyFieldPatch(defs, undefined, { url: 'http://a.example', port: null });
    expect(result).toMatchObject({ ok: true, fields: { port: 443 } });
  });
});

describe('applyFieldPatch on update (merge patch)', () => {
  const current = { url: 'https://x.example', port: 8443, tier: 'gold', public: false };

  it('changes given fields and keeps the others', () => {
    expect(applyFieldPatch(defs, current, { port: 9000 })).toEqual({
      ok: true,
      fields: { url: 'https://x.example', port: 9000, tier: 'gold', public: false },
    });
  });

  it('removes an optional field set to null (its default, if any, fills in)', () => {
    expect(applyFieldPatch(defs, current, { public: null, port: null })).toEqual({
      ok: true,
      fields: { url: 'https://x.example', port: 443, tier: 'gold' },
    });
  });

  it('rejects removing a required field, even one with a default', () => {
    const result = applyFieldPatch(defs, current, { url: null, tier: null });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues).toEqual([
        { path: 'fields.url', message: 'This field is required and cannot be removed.' },
        { path: 'fields.tier', message: 'This field is required and cannot be removed.' },
      ]);
    }
  });

  it('type-checks new values', () => {
    const result = applyFieldPatch(defs, current, { url: 'not a url' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.path).toBe('fields.url');
  });
});

describe('withDefaults', () => {
  it('fills defaults for fields an entity lacks and keeps falsy stored values', () => {
    expect(withDefaults(defs, { url: 'https://x.example', public: false, port: 0 })).toEqual({
      url: 'https://x.example',
      port: 0,
      tier: 'bronze',
      public: false,
    });
  });
});
