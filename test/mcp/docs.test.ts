import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MCP_DOC, renderToolsSection, withToolsSection } from '../../bin/mcp-docs.ts';
import { BUILTIN_TOOLS } from '../../lib/features/feature-routes.ts';

/** docs/mcp.md's tools section is what `npm run docs:mcp` writes from the tool definitions. */
describe('docs/mcp.md', () => {
  const doc = readFileSync(MCP_DOC, 'utf8');

  it('holds the tools section generated from the tool definitions (npm run docs:mcp)', () => {
    expect(doc === withToolsSection(doc), 'docs/mcp.md is stale: npm run docs:mcp').toBe(true);
  });

  it('lists every built-in tool, with its arguments', () => {
    const section = renderToolsSection();
    for (const tool of BUILTIN_TOOLS) expect(doc).toContain(`#### ${tool.name}\n`);
    expect(section.match(/^#### /gm)).toHaveLength(BUILTIN_TOOLS.length);
    expect(section).toContain('- `limit` (integer, 1 to 500, default `50`): At most this many results');
  });
});
