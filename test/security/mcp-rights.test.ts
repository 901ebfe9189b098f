import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { BUILTIN_TOOLS, BUILTIN_TOOLSETS } from '../../lib/features/feature-routes.ts';
import { WRITING_TOOLS } from '../mcp/agent.ts';
import { connectSdkClient } from '../mcp/sdk-client.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * MCP tool rights over the whole tool table (DECISIONS.md "MCP"): for every built-in and for
 * runbook tools, a read-only key lists and calls only tools that change nothing, whatever the
 * registered manifest's annotations claim. A tool that writes is, for a read-only key, unknown:
 * missing from tools/list and refused by name (app.tools answers undefined, the SDK client gets
 * JSON-RPC -32602), and the call changes nothing.
 */

type ManifestTool = (typeof BUILTIN_TOOLSETS)[number]['tools'][number];
/** Listed whatever the manifests: find_tools (tool-catalog.ts). */
const ALWAYS = 'find_tools';
type Claim = 'spec-shaped' | 'all claim read-only' | 'all claim writes';

/** Every toolset's tools as a manifest of that kind would describe them. */
function builtinManifestTools(claim: Claim) {
  return BUILTIN_TOOLSETS.flatMap((t) => t.tools).map(({ annotations: _own, ...tool }: ManifestTool) =>
    claim === 'spec-shaped'
      ? tool
      : { ...tool, annotations: { readOnlyHint: claim === 'all claim read-only' } },
  );
}

/** Runbook tools (bound to an action) as a manifest of that kind would describe them. */
function runbookTools(claim: Claim, actionId: string) {
  const base = {
    description: 'Runs the fixture action',
    inputSchema: { type: 'object' },
    action_id: actionId,
  };
  if (claim === 'spec-shaped') return [{ ...base, name: 'runbook_plain' }];
  const readOnlyHint = claim === 'all claim read-only';
  return [
    { ...base, name: 'runbook_claiming', annotations: { readOnlyHint } },
    { ...base, name: 'runbook_destructive', annotations: { readOnlyHint, destructiveHint: true } },
  ];
}

const CLAIMS: Claim[] = ['spec-shaped', 'all claim read-only', 'all claim writes'];

/** The catalog readers SPEC.md names: a read-only key gets them from any catalog-ops manifest. */
const SPEC_READERS = [
  'get_check_results',
  'get_entity',
  'get_status_summary',
  'list_blueprints',
  'list_entities',
  'list_incidents',
];

describe.each(runtimes)('MCP tool rights of read-only keys ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let viewerKey: string;
  let admin: Principal;
  let viewer: Principal;
  let entityId = '';
  let actionId = '';
  let pageIncidentId = '';
  const clients: Client[] = [];

  /** Arguments under which each writing tool would write if it ran. */
  const writingArgs = (name: string): Record<string, unknown> =>
    name === 'create_page_incident'
      ? { page: 'rights-page', title: 'Written', body: 'By a viewer?' }
      : name === 'update_page_incident'
        ? { page: 'rights-page', incident_id: pageIncidentId, status: 'resolved', body: 'Done?' }
        : name === 'create_check'
          ? { entity_id: entityId, target_url: 'http://127.0.0.1:9/health' }
          : name === 'create_maintenance'
            ? {
                name: 'Quiet',
                entity_ids: [entityId],
                starts_at: '2099-01-01T00:00:00.000Z',
                ends_at: '2099-01-01T01:00:00.000Z',
              }
            : name === 'start_maintenance'
              ? { duration_minutes: 5, entity_ids: [entityId] }
              : name === 'apply_config'
                ? {
                    document: {
                      apiVersion: 'vigil/v1',
                      kind: 'Config',
                      blueprints: [{ slug: 'rights', name: 'Rights' }],
                    },
                  }
                : {};

  const sdk = async (key: string) => {
    const client = await connectSdkClient(api, key);
    clients.push(client);
    return client;
  };

  /** Nothing a writing tool would have written: no check, no execution of the action. */
  const expectNothingWritten = async () => {
    const checks = await api.request('GET', '/v1/checks', { key: api.adminKey });
    expect(checks.status).toBe(200);
    expect(checks.body).toEqual([]);
    const runs = await api.request('GET', `/v1/actions/${actionId}/executions`, { key: api.adminKey });
    expect(runs.status).toBe(200);
    expect(runs.body.executions).toEqual([]);
    // create_page_incident and update_page_incident would have added an incident or an update.
    const written = await api.request('GET', '/v1/status-pages/rights-page/incidents', { key: api.adminKey });
    expect(written.body.incidents.map((i: { updates: unknown[] }) => i.updates.length)).toEqual([1]);
    // apply_config's document (writingArgs) would have made this blueprint.
    expect((await api.request('GET', '/v1/blueprints/rights', { key: api.adminKey })).status).toBe(404);
  };

  beforeAll(async () => {
    api = await start();
    const post = async (path: string, body: unknown) => {
      const res = await api.request('POST', path, { key: api.adminKey, body });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    viewerKey = (await post('/v1/auth/keys', { label: 'viewer', is_read_only: true })).key;
    admin = {
      tenantId: api.tenantId,
      userId: 'usr_agent',
      keyId: 'key_admin',
      role: 'admin',
      readOnly: false,
    };
    viewer = { ...admin, keyId: 'key_viewer', readOnly: true };
    // The tenant's starter catalog-ops would hold the names the manifests below claim.
    expect((await api.request('DELETE', '/v1/skills/catalog-ops', { key: api.adminKey })).status).toBe(204);
    await post('/v1/blueprints', { slug: 'service', name: 'Service' });
    entityId = (await post('/v1/blueprints/service/entities', { slug: 'api', name: 'API' })).id;
    // A placeholder host is checked only when the action runs; a run, even a blocked one, is recorded.
    actionId = (await post('/v1/actions', { name: 'Restart', url: 'https://{{host}}/restart' })).id;
    await post('/v1/status-pages', { slug: 'rights-page', title: 'Rights', entity_ids: [entityId] });
    pageIncidentId = (await post('/v1/status-pages/rights-page/incidents', { title: 'Open', body: 'x' })).id;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await api?.close();
  });

  it('covers every built-in tool', () => {
    expect([...builtinManifestTools('spec-shaped').map((t) => t.name), ALWAYS].sort()).toEqual(
      BUILTIN_TOOLS.map((t) => t.name).sort(),
    );
    expect(BUILTIN_TOOLS.filter((t) => t.annotations.readOnlyHint).map((t) => t.name)).toEqual(
      expect.arrayContaining(SPEC_READERS),
    );
    expect(
      BUILTIN_TOOLS.filter((t) => !t.annotations.readOnlyHint)
        .map((t) => t.name)
        .sort(),
    ).toEqual([...WRITING_TOOLS].sort());
  });

  describe.each(CLAIMS)('with a manifest where %s', (claim) => {
    const slug = `rights-${CLAIMS.indexOf(claim)}`;
    let tools: { name: string; readOnly: boolean }[] = [];

    beforeAll(async () => {
      const manifestTools = [...builtinManifestTools(claim), ...runbookTools(claim, actionId)];
      const res = await api.request('POST', '/v1/skills', {
        key: api.adminKey,
        body: { slug, name: slug, version: '1.0.0', tools: manifestTools },
      });
      expect(res.status, res.text).toBe(201);
      const own = new Map(BUILTIN_TOOLS.map((t) => [t.name, t.annotations.readOnlyHint]));
      // The rule: a built-in's own readOnlyHint; a runbook tool never reads only.
      tools = [...manifestTools.map((t) => t.name), ALWAYS].map((name) => ({
        name,
        readOnly: own.get(name) ?? false,
      }));
    });
    afterAll(async () => {
      // Frees the tool names for the next manifest.
      await api.request('DELETE', `/v1/skills/${slug}`, { key: api.adminKey });
    });

    it('lists to a read-only key exactly the tools that change nothing, through app.tools', async () => {
      const readers = tools.filter((t) => t.readOnly).map((t) => t.name);
      expect((await api.app.tools.list(viewer)).map((t) => t.name).sort()).toEqual(readers.sort());
      expect(readers).toEqual(expect.arrayContaining(SPEC_READERS));
      expect((await api.app.tools.list(admin)).map((t) => t.name).sort()).toEqual(
        tools.map((t) => t.name).sort(),
      );
    });

    it('refuses a read-only key every tool that writes, by name, through app.tools', async () => {
      for (const tool of tools.filter((t) => !t.readOnly)) {
        expect(
          await api.app.tools.call(viewer, tool.name, writingArgs(tool.name)),
          tool.name,
        ).toBeUndefined();
      }
      await expectNothingWritten();
    });

    it('shows each tool with the annotations of what runs it over the SDK client', async () => {
      const listed = (await (await sdk(api.adminKey)).listTools()).tools;
      for (const tool of tools) {
        const shown = listed.find((t) => t.name === tool.name);
        expect(shown?.annotations?.readOnlyHint, tool.name).toBe(tool.readOnly);
        const builtin = BUILTIN_TOOLS.find((t) => t.name === tool.name);
        if (builtin) expect(shown?.annotations, tool.name).toEqual(builtin.annotations);
      }
    });

    it('lists and calls for a read-only key only the tools that change nothing over the SDK client', async () => {
      const client = await sdk(viewerKey);
      const listed = (await client.listTools()).tools;
      expect(listed.map((t) => t.name).sort()).toEqual(
        tools
          .filter((t) => t.readOnly)
          .map((t) => t.name)
          .sort(),
      );
      expect(listed.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      const summary = await client.callTool({ name: 'get_status_summary', arguments: {} });
      expect(summary.isError ?? false).toBe(false);
      for (const tool of tools.filter((t) => !t.readOnly)) {
        await expect(
          client.callTool({ name: tool.name, arguments: writingArgs(tool.name) }),
          tool.name,
        ).rejects.toMatchObject({ code: -32602 });
      }
      await expectNothingWritten();
    });
  });
});
