import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { DocKey } from '../../lib/config-doc/kind.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';

/**
 * Every YAML example of docs/config.md is a document (or part of one) the API takes: each object
 * of a list parses with its kind's schema, the one plan and apply parse it with. `${ENV}`
 * references stand for values the environment gives, so they are replaced by a plausible URL.
 */
const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'config.md'), 'utf8');
/** The document's lists in the engine's order (the kinds' declared places). */
const DOC_KEYS = Object.keys(CONFIG_KINDS);
const EXAMPLES = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

describe('docs/config.md examples', () => {
  it('has examples for every list of the document', () => {
    const shown = new Set(EXAMPLES.flatMap((text) => Object.keys(parse(text) ?? {})));
    expect(DOC_KEYS.filter((key) => !shown.has(key))).toEqual([]);
  });

  it('names the lists in the order the engine applies them (the kinds’ declared places)', () => {
    const sentence = /the order they are applied: ((?:`[a-z_]+`,?\s*(?:and\s*)?)+)/.exec(DOC)?.[1] ?? '';
    const named = [...sentence.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    expect(named).toEqual(DOC_KEYS);
  });

  it.each(EXAMPLES.map((text, i) => [i, text] as const))('example %i parses object by object', (_, text) => {
    // The YAML as written (a reader copies it; a reference stands where a secret may), or else
    // each reference given a value, as the CLI does (a URL: references in a URL field).
    const written = parse(text) as Record<string, unknown>;
    const resolved = JSON.parse(
      JSON.stringify(written).replace(/\$\{[A-Z0-9_]+\}/g, 'https://hooks.example.com/x'),
    ) as Record<string, unknown>;
    for (const [key, list] of Object.entries(written)) {
      if (!DOC_KEYS.includes(key)) continue;
      expect(Array.isArray(list), key).toBe(true);
      (list as unknown[]).forEach((object, i) => {
        const schema = CONFIG_KINDS[key as DocKey].schema;
        if (schema.safeParse(object).success) return;
        const parsed = schema.safeParse((resolved[key] as unknown[])[i]);
        expect(parsed.success ? [] : parsed.error.issues, `${key}: ${JSON.stringify(object)}`).toEqual([]);
      });
    }
  });
});
