import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, BUILTIN_TOOLSETS, CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';
import { createSkillBody } from '../../lib/skills/manifest.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * Toolsets are skills (issue 56 part 5): six built-in manifests that cover every built-in once
 * (find_tools aside, which is always listed); a new tenant starts with catalog-ops; one call
 * enables a toolset; find_tools says what else the tenant's skills and the toolsets offer.
 */

describe('the built-in toolsets', () => {
  it('offer every built-in but find_tools exactly once, with the built-ins’ own annotations', () => {
    const offered = BUILTIN_TOOLSETS.flatMap((t) => t.tools.map((tool) => tool.name));
    expect(new Set(offered).size).toBe(offered.length);
    expect([...offered, 'find_tools'].sort()).toEqual(BUILTIN_TOOLS.map((t) => t.name).sort());
    for (const toolset of BUILTIN_TOOLSETS) {
      expect(createSkillBody.safeParse(toolset).success, toolset.slug).toBe(true);
      for (const tool of toolset.tools)
        expect(tool.annotations, tool.name).toEqual(
          BUILTIN_TOOLS.find((b) => b.name === tool.name)?.annotations,
        );
    }
    expect(BUILTIN_TOOLSETS.map((t) => t.slug)).toEqual([
      'catalog-ops',
      'check-ops',
      'incident-ops',
      'status-page-ops',
      'on-call-ops',
      'config-ops',
    ]);
  });
});

describe.each(runtimes)('toolsets and find_tools ($runtime)', ({ start }) => {
  let api: ApiHarness;
  let admin: Client;
  let viewer: Client;
  let viewerKey: string;
  const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
  const checkOps = BUILTIN_TOOLSETS.find((t) => t.slug === 'check-ops')?.tools.map((t) => t.name) ?? [];
  const findTools = async (client: Client, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name: 'find_tools', arguments: args })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    return result.structuredContent as {
      tools: { name: string; toolset: string; description: string; enabled: boolean; read_only: boolean }[];
      total: number;
    };
  };

  beforeAll(async () => {
    api = await start();
    viewerKey = (
      await api.request('POST', '/v1/auth/keys', {
        key: api.adminKey,
        body: { label: 'ro', is_read_only: true },
      })
    ).body.key;
    admin = await connectSdkClient(api, api.adminKey);
    viewer = await connectSdkClient(api, viewerKey);
  });
  afterAll(async () => {
    await Promise.all([admin, viewer].map((c) => c?.close()));
    await api?.close();
  });

  it('starts a new tenant with catalog-ops: its first tools/list is catalog-ops and find_tools', async () => {
    expect(await names(admin)).toEqual(
      [...CATALOG_OPS_MANIFEST.tools.map((t) => t.name), 'find_tools'].sort(),
    );
    const skills = await api.request('GET', '/v1/skills', { key: api.adminKey });
    expect(skills.body.map((s: { slug: string }) => s.slug)).toEqual(['catalog-ops']);
  });

  it('find_tools answers the toolsets not enabled yet, one line per tool', async () => {
    const found = await findTools(admin, { toolset: 'check-ops' });
    expect(found.tools.map((t) => t.name)).toEqual(checkOps);
    expect(found.tools.every((t) => !t.enabled && t.toolset === 'check-ops')).toBe(true);
    expect(found.tools.every((t) => t.description.length <= 160 && !t.description.includes('. '))).toBe(true);
    const catalog = await findTools(admin, { query: 'blast' });
    expect(catalog.tools).toEqual([
      expect.objectContaining({ name: 'get_blast_radius', enabled: true }),
      expect.objectContaining({ name: 'show_blast_radius', enabled: true }),
    ]);
    const bounded = await findTools(admin, { limit: 3 });
    expect(bounded.tools).toHaveLength(3);
    expect(bounded.total).toBe(BUILTIN_TOOLSETS.reduce((n, t) => n + t.tools.length, 0));
    // A read-only key is told only of tools it could call.
    const seen = await findTools(viewer);
    expect(seen.tools.length).toBeGreaterThan(0);
    expect(seen.tools.every((t) => t.read_only)).toBe(true);
    expect(seen.tools.map((t) => t.name)).not.toContain('delete_check');
  });

  it('enables check-ops in one step, then disabling and enabling it again move its tools', async () => {
    const viewerTry = await api.request('POST', '/v1/skills/builtin/check-ops', { key: viewerKey });
    expect(viewerTry.status).toBe(403);
    expect((await api.request('POST', '/v1/skills/builtin/no-such-ops', { key: api.adminKey })).status).toBe(
      404,
    );

    const enabled = await api.request('POST', '/v1/skills/builtin/check-ops', { key: api.adminKey });
    expect(enabled.status, enabled.text).toBe(201);
    expect(enabled.body).toMatchObject({ slug: 'check-ops', enabled: true });
    expect(await names(admin)).toEqual(expect.arrayContaining(checkOps));
    expect((await findTools(admin, { toolset: 'check-ops' })).tools.every((t) => t.enabled)).toBe(true);
    // Read-only keys get the toolset's readers only.
    expect(await names(viewer)).toEqual(expect.arrayContaining(['get_ping_log', 'list_heartbeats']));
    expect(await names(viewer)).not.toContain('run_check');

    const off = await api.request('PUT', '/v1/skills/check-ops', {
      key: api.adminKey,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    for (const name of checkOps) expect(await names(admin)).not.toContain(name);
    const again = await api.request('POST', '/v1/skills/builtin/check-ops', { key: api.adminKey });
    expect(again.status, again.text).toBe(200);
    expect(await names(admin)).toEqual(expect.arrayContaining(checkOps));
  });

  it('keeps find_tools listed when every skill is gone', async () => {
    for (const slug of ['catalog-ops', 'check-ops'])
      expect((await api.request('DELETE', `/v1/skills/${slug}`, { key: api.adminKey })).status).toBe(204);
    expect(await names(admin)).toEqual(['find_tools']);
    const found = await findTools(admin);
    expect(found.tools.every((t) => !t.enabled)).toBe(true);
    const restored = await api.request('POST', '/v1/skills/builtin/catalog-ops', { key: api.adminKey });
    expect(restored.status).toBe(201);
    expect(await names(admin)).toContain('get_status_summary');
  });
});
