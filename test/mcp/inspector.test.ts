import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { enableToolsets, TOOLSET_TOOL_NAMES } from '../support/toolsets.ts';

const run = promisify(execFile);
// The Inspector needs Node >= 22.19: it runs on the project's Node 24, the one running this test.
const inspectorBin = resolve(import.meta.dirname, '../../node_modules/.bin/mcp-inspector');

describe('the MCP Inspector CLI against the local runtime', () => {
  let api: LocalHarness;

  const inspect = async (transport: 'http' | 'sse', ...args: string[]) => {
    const { stdout } = await run(
      process.execPath,
      [
        inspectorBin,
        '--cli',
        '--transport',
        transport,
        '--server-url',
        new URL('/v1/mcp', api.local.url).href,
        '--header',
        `Authorization: Bearer ${api.adminKey}`,
        ...args,
      ],
      { timeout: 60_000 },
    );
    return JSON.parse(stdout);
  };

  beforeAll(async () => {
    api = await startLocalHarness({ scheduler: false });
    await enableToolsets(api, api.adminKey);
  });
  afterAll(async () => {
    await api.close();
  });

  it.each(['http', 'sse'] as const)(
    'lists every toolset’s tools and find_tools over %s',
    async (transport) => {
      const out = await inspect(transport, '--method', 'tools/list');
      expect(out.tools.map((t: { name: string }) => t.name)).toEqual(
        [...TOOLSET_TOOL_NAMES, 'find_tools'].sort(),
      );
      const createCheck = out.tools.find((t: { name: string }) => t.name === 'create_check');
      expect(createCheck.annotations).toMatchObject({ readOnlyHint: false });
      // The entity either way (issue 75): by id, or by blueprint and slug; neither is required alone.
      expect(createCheck.inputSchema.required).toBeUndefined();
      expect(Object.keys(createCheck.inputSchema.properties)).toEqual(
        expect.arrayContaining(['entity_id', 'blueprint_slug', 'entity_slug']),
      );
      expect(createCheck.inputSchema.properties.check_type.default).toBe('http');
    },
    90_000,
  );

  it('calls get_status_summary and prints its structured content', async () => {
    await api.request('POST', '/v1/blueprints', {
      key: api.adminKey,
      body: { slug: 'service', name: 'Service', fields: [] },
    });
    const entity = await api.request('POST', '/v1/blueprints/service/entities', {
      key: api.adminKey,
      body: { slug: 'checkout', name: 'Checkout' },
    });
    expect(entity.status, entity.text).toBe(201);
    const out = await inspect('http', '--method', 'tools/call', '--tool-name', 'get_status_summary');
    expect(out.isError ?? false).toBe(false);
    expect(out.structuredContent).toMatchObject({ total: 1 });
    expect(out.content[0]).toMatchObject({ type: 'text' });
    expect(out.content[0].text).toMatch(/\b1 entit/);
  }, 90_000);
});
