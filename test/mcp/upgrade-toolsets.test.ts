import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLSETS } from '../../lib/features/feature-routes.ts';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import {
  forgetToolsetUpgrade,
  loadPreviousToolsets,
  type PreviousToolsets,
  previousToolsets,
} from '../fixtures/previous-release-toolsets/load.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { startOnPreviousData, type UpgradedRuntime } from '../support/previous-data-dir.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * An upgrade gives stored built-in toolsets the new tool schemas (issue 75). A tenant's toolset is
 * a skill holding copies of its tools' inputSchemas, and calls are validated against the stored
 * copy: the release before the entity either way (test/fixtures/previous-release-toolsets, written
 * by main at a496dc32) stored get_entity's schema of the slugs only, which refuses `entity_id`.
 * The migration (lib/mcp/builtin-skill-upgrade.ts) gives each older copy the current manifest,
 * keeping its enabled flag: on SQLite when the local runtime opens that release's data directory,
 * and on DynamoDB Local when `data migrate` runs after the cloud deploy.
 */

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/** The calls the old schemas refused, and the versions every toolset must have after the upgrade. */
async function expectUpgraded(client: Client, dump: PreviousToolsets, skills: unknown) {
  for (const [name, args] of [
    ['get_entity', { entity_id: dump.entity_id }],
    ['explain_alerting', { blueprint_slug: 'service', entity_slug: 'shop', to_state: 'down' }],
    ['get_uptime', { blueprint_slug: 'service', entity_slug: 'shop' }],
  ] as const) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
    expect(text(result), name).toContain('Shop');
  }
  type Listed = { slug: string; version: string; enabled: boolean };
  const listed = (
    Array.isArray(skills) ? skills : Object.values(skills as Record<string, unknown>).find(Array.isArray)
  ) as Listed[];
  const bySlug = new Map(listed.map((s) => [s.slug, s]));
  for (const toolset of BUILTIN_TOOLSETS) {
    const before = dump.skills.find((s) => s.slug === toolset.slug);
    expect(bySlug.get(toolset.slug), toolset.slug).toMatchObject({
      version: toolset.version,
      enabled: before?.enabled,
    });
  }
}

describe('upgrading a local data directory of the release before the entity either way (SQLite, migrated at start)', () => {
  let dump: PreviousToolsets;
  let started: UpgradedRuntime | undefined;
  let runtime: LocalRuntime;
  let client: Client;

  beforeAll(async () => {
    dump = previousToolsets();
    started = await startOnPreviousData('vigil-upgrade-toolsets-', (table) =>
      loadPreviousToolsets(table, dump),
    );
    runtime = started.runtime;
    client = new Client({ name: 'vigil-test', version: '1.0.0' });
    const headers = { authorization: `Bearer ${dump.api_key}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${runtime.url}/v1/mcp`), { requestInit: { headers } }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await started?.stop();
  });

  it('takes the entity either way through the upgraded toolsets, each keeping its enabled flag', async () => {
    const skills = await fetch(`${runtime.url}/v1/skills`, {
      headers: { authorization: `Bearer ${dump.api_key}` },
    });
    expect(skills.status).toBe(200);
    await expectUpgraded(client, dump, await skills.json());
  });
});

describe('upgrading a DynamoDB store of the release before the entity either way (data migrate after the deploy)', () => {
  let dump: PreviousToolsets;
  let api: LambdaHarness;

  beforeAll(async () => {
    dump = previousToolsets();
    api = await startLambdaHarness();
    await forgetToolsetUpgrade(api.table);
    await loadPreviousToolsets(api.table, dump);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('upgrades the five changed toolsets once, and the tools take the entity either way', async () => {
    const upgraded = async () => JSON.parse(await api.operator(['data', 'migrate'])).builtin_skills_upgraded;
    const first = await upgraded();
    const second = await upgraded();
    // Without the marker, a run finds every toolset current and writes none.
    await forgetToolsetUpgrade(api.table);
    const unmarked = await upgraded();
    // catalog-ops (2.1.0 → 2.2.0), on-call-ops, incident-ops, status-page-ops and check-ops
    // (1.0.0 → 1.1.0: get_check_runs) changed; config-ops did not.
    expect([first, second, unmarked]).toEqual([5, 0, 0]);

    const client = await connectSdkClient(api, dump.api_key);
    try {
      const skills = await api.request('GET', '/v1/skills', { key: dump.api_key });
      expect(skills.status).toBe(200);
      await expectUpgraded(client, dump, skills.body);
    } finally {
      await client.close();
    }
  });
});
