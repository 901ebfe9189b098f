import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, keyPrefix, sameDigest } from '../../lib/auth/api-key.ts';
import { isWellFormedApiKey } from '../../lib/domain/formats/api-key-format.ts';

describe('API key format', () => {
  it('generates vgl_ + 32 base62 characters + a 6-character checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^vgl_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('generates distinct keys', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
  });

  it('rejects a key with one character changed (checksum)', () => {
    const key = generateApiKey();
    const pos = 10;
    const swapped = key[pos] === 'a' ? 'b' : 'a';
    const typo = key.slice(0, pos) + swapped + key.slice(pos + 1);
    expect(isWellFormedApiKey(typo)).toBe(false);
  });

  it('rejects wrong prefixes, lengths and characters', () => {
    const key = generateApiKey();
    expect(isWellFormedApiKey(key.replace('vgl_', 'vgk_'))).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}0`)).toBe(false);
    expect(isWellFormedApiKey(`${key.slice(0, -1)}-`)).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('hashes with SHA-256 and compares digests', () => {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(sameDigest(hash, hashApiKey(key))).toBe(true);
    expect(sameDigest(hash, hashApiKey(generateApiKey()))).toBe(false);
    expect(sameDigest(hash, 'abcd')).toBe(false);
  });

  it('shows the first 12 characters as the prefix', () => {
    const key = generateApiKey();
    expect(keyPrefix(key)).toBe(key.slice(0, 12));
    expect(keyPrefix(key)).toHaveLength(12);
  });
});
