import { describe, expect, it } from 'vitest';
import { SLUG } from '../../lib/domain/formats/slug.ts';
import { SLUG_MAX, slugOf } from '../../web/src/ui/slug.ts';

describe('slugOf: the slug a create form derives from a name', () => {
  it.each([
    ['Payments API', 'payments-api'],
    ['  Payments   API (EU)  ', 'payments-api-eu'],
    ['Zürich Café', 'zurich-cafe'],
    ['Straße & Ærø', 'strasse-aero'],
    ['Łódź — Kraków', 'lodz-krakow'],
    ['--already-a-slug--', 'already-a-slug'],
    ['v2.1 / api_gateway', 'v2-1-api-gateway'],
    ['日本語', ''],
    ['', ''],
  ])('%j becomes %j', (name, slug) => {
    expect(slugOf(name)).toBe(slug);
  });

  it('stays within the API rule, at most 63 characters, never ending in a hyphen', () => {
    const long = slugOf(`${'a'.repeat(62)} b`);
    expect(long).toBe('a'.repeat(62));
    expect(slugOf('x'.repeat(200))).toHaveLength(SLUG_MAX);
    for (const name of ['Payments API', 'Zürich Café', `${'word '.repeat(30)}`, '9 lives']) {
      expect(slugOf(name)).toMatch(SLUG);
    }
  });
});
