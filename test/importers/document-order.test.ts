import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { configDocument } from '../../lib/importers/import-common.ts';
import { TEXT_IMPORTERS } from '../../lib/importers/registry.ts';

/**
 * An importer writes its lists in the document's order, the one the configuration engine derives
 * from the kinds' declared places (lib/config-doc/kind.ts documentOrder): two conversions print
 * the same YAML, in the order plan and apply take the lists.
 */
const ORDER = Object.keys(CONFIG_KINDS);
const listsOf = (document: Record<string, unknown>) =>
  Object.keys(document).filter((key) => key !== 'apiVersion' && key !== 'kind');
const inOrder = (keys: string[]) => [...keys].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));

describe('the importers’ documents', () => {
  it.each([
    ['gatus', '../fixtures/gatus/config.yaml'],
    ['kuma', '../fixtures/kuma/backup.json'],
  ] as const)('%s: the lists come in the engine’s order', (source, fixture) => {
    const text = readFileSync(new URL(fixture, import.meta.url), 'utf8');
    const lists = listsOf(TEXT_IMPORTERS[source]?.convert(text).document ?? {});
    expect(lists.length).toBeGreaterThan(3);
    expect(lists.every((key) => ORDER.includes(key))).toBe(true);
    expect(lists).toEqual(inOrder(lists));
  });

  it('keeps the lists as the importer gives them, leaving out the empty ones', () => {
    const document = configDocument({ checks: [{}], entities: [], blueprints: [{}] });
    expect(document).toEqual({ apiVersion: 'vigil/v1', kind: 'Config', checks: [{}], blueprints: [{}] });
    // As given: the order is the importer's to write (the test above holds it to the engine's).
    expect(listsOf(document)).toEqual(['checks', 'blueprints']);
  });
});
