import { describe, expect, it } from 'vitest';
import {
  checkFieldValue,
  type FieldType,
  isHttpUrl,
  parseDefaultValue,
} from '../../lib/domain/catalog/field-values.ts';

describe('checkFieldValue', () => {
  it.each<[FieldType, unknown]>([
    ['string', 'hello'],
    ['string', ''],
    ['number', 42],
    ['number', -1.5],
    ['boolean', false],
    ['url', 'https://example.com/health'],
    ['url', 'http://10.0.0.1:8080'],
    ['array', []],
    ['array', ['a', 1, true]],
  ])('accepts a %s value %j', (type, value) => {
    expect(checkFieldValue(type, value)).toEqual({ ok: true, value });
  });

  it.each<[FieldType, unknown]>([
    ['string', 42],
    ['string', null],
    ['number', '42'],
    ['number', Number.NaN],
    ['boolean', 'true'],
    ['boolean', 0],
    ['url', 'example.com'],
    ['url', 'ftp://example.com'],
    ['url', '/relative/path'],
    ['url', 42],
    ['array', 'a,b'],
    ['array', [{ nested: true }]],
    ['array', [['nested']]],
    ['array', [null]],
  ])('rejects a %s value %j with a message', (type, value) => {
    const checked = checkFieldValue(type, value);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toMatch(/^[A-Z].*\.$/);
  });
});

describe('parseDefaultValue', () => {
  it.each<[FieldType, string, unknown]>([
    ['string', 'anything at all', 'anything at all'],
    ['number', '42', 42],
    ['number', '-0.5', -0.5],
    ['number', '1e3', 1000],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['url', 'https://status.example.com', 'https://status.example.com'],
    ['array', '["a", 2, false]', ['a', 2, false]],
    ['array', '[]', []],
  ])('parses a %s default %j', (type, raw, value) => {
    expect(parseDefaultValue(type, raw)).toEqual({ ok: true, value });
  });

  it.each<[FieldType, string]>([
    ['number', ''],
    ['number', 'forty-two'],
    ['number', '0x10'],
    ['number', ' 42'],
    ['number', 'Infinity'],
    ['boolean', 'yes'],
    ['boolean', 'TRUE'],
    ['url', 'not a url'],
    ['url', 'mailto:ops@example.com'],
    ['array', 'a,b'],
    ['array', '{"a":1}'],
    ['array', '[[1]]'],
  ])('rejects a %s default %j', (type, raw) => {
    expect(parseDefaultValue(type, raw).ok).toBe(false);
  });
});

describe('isHttpUrl', () => {
  it('accepts only absolute http and https URLs with a host', () => {
    expect(isHttpUrl('https://a.example')).toBe(true);
    expect(isHttpUrl('http://localhost:3000/x?y=1')).toBe(true);
    expect(isHttpUrl('https://')).toBe(false);
    expect(isHttpUrl('file:///etc/passwd')).toBe(false);
    expect(isHttpUrl('javascript:alert(1)')).toBe(false);
  });
});
