import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DOC_KEYS, type DocKey } from '../../lib/config-doc/kind.ts';
import { CONFIG_KINDS } from '../../lib/config-doc/registry.ts';

/**
 * Every YAML example of docs/config.md is a document (or part of one) the API takes: each object
 * of a list parses with its kind's schema, the one plan and apply parse it with. `${ENV}`
 * references stand for values the environment gives, so they are replaced by a plausible URL.
 */
const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'config.md'), 'utf8');
const EXAMPLES = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

describe('docs/config.md examples', () => {
  it('has examples for every list of the document', () => {
    const shown = new Set(EXAMPLES.flatMap((text) => Object.keys(parse(text) ?? {})));
    expect(DOC_KEYS.filter((key) => !shown.has(key))).toEqual([]);
  });

  it.each(EXAMPLES.map((text, i) => [i, text] as const))('example %i parses object by object', (_, text) => {
    // The YAML as written (a reader copies it), then each reference given a value, as the CLI does.
    const document = JSON.parse(
      JSON.stringify(parse(text)).replace(/\$\{[A-Z0-9_]+\}/g, 'https://hooks.example.com/x'),
    ) as Record<string, unknown>;
    for (const [key, list] of Object.entries(document)) {
      if (!(DOC_KEYS as readonly string[]).includes(key)) continue;
      expect(Array.isArray(list), key).toBe(true);
      for (const object of list as unknown[]) {
        const parsed = CONFIG_KINDS[key as DocKey].schema.safeParse(object);
        expect(parsed.success ? [] : parsed.error.issues, `${key}: ${JSON.stringify(object)}`).toEqual([]);
      }
    }
  });
});
