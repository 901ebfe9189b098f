import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLSETS, CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';

/**
 * web/src/skills/catalog-ops.json is the catalog-ops manifest as a file: the console's "Enable
 * catalog tools" posts it and docs/mcp.md's curl sends it. It must say what the code says.
 */
describe('the catalog-ops manifest file', () => {
  it('is CATALOG_OPS_MANIFEST exactly', () => {
    const file = join(import.meta.dirname, '..', '..', 'web', 'src', 'skills', 'catalog-ops.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(CATALOG_OPS_MANIFEST)));
  });

  it('web/src/skills/toolsets.json is the built-in toolsets in brief, for the console', () => {
    const file = join(import.meta.dirname, '..', '..', 'web', 'src', 'skills', 'toolsets.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(
      BUILTIN_TOOLSETS.map((t) => ({
        slug: t.slug,
        name: t.name,
        description: t.description,
        version: t.version,
        tools: t.tools.map((tool) => tool.name),
      })),
    );
  });
});
