import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEntity } from '../checks/check-fixtures.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { startStatusServer } from '../support/status-server.ts';
import { enableToolsets } from '../support/toolsets.ts';

/** run_check through the MCP SDK's client: a probe now, its result stored with `manual: true`. */
describe('the run_check tool (local runtime)', () => {
  let api: LocalHarness;
  let server: Awaited<ReturnType<typeof startStatusServer>>;
  let readOnlyKey: string;
  let checkId: string;
  const open: Client[] = [];

  const connect = async (key = api.adminKey) => {
    const client = new Client({ name: 'vigil-test', version: '1.0.0' });
    const headers = { Authorization: `Bearer ${key}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/v1/mcp', api.local.url), { requestInit: { headers } }),
    );
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await startStatusServer(200);
    api = await startLocalHarness({ scheduler: false, env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    const call = async (path: string, body: unknown) =>
      api.request('POST', path, { key: api.adminKey, body });
    await enableToolsets(api, api.adminKey);
    readOnlyKey = (await call('/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    const entityId = await newEntity(api);
    const created = await call('/v1/checks', {
      entity_id: entityId,
      check_type: 'http',
      target_url: server.url,
      interval_seconds: 3600,
      name: 'Front page',
    });
    checkId = created.body.id;
  }, 60_000);
  afterAll(async () => {
    for (const client of open) await client.close();
    await api?.close();
    await server?.close();
  });

  it('probes the check now and answers its stored result in words and as data', async () => {
    const client = await connect();

    const answer = await client.callTool({ name: 'run_check', arguments: { check_id: checkId } });

    expect(answer.isError ?? false).toBe(false);
    expect(answer.structuredContent).toMatchObject({
      status: 'completed',
      result: { manual: true, success: true, status_code: 200 },
    });
    const [text] = answer.content as { type: string; text: string }[];
    expect(text?.text).toContain('Check "Front page" of');
    expect(text?.text).toContain('ran now, up');
    const results = await api.request('GET', `/v1/checks/${checkId}/results`, { key: api.adminKey });
    expect(results.body.results).toMatchObject([{ manual: true }]);
  });

  it('is hidden from a read-only key and refused to it', async () => {
    const client = await connect(readOnlyKey);

    const names = (await client.listTools()).tools.map((t) => t.name);

    expect(names).not.toContain('run_check');
    await expect(
      client.callTool({ name: 'run_check', arguments: { check_id: checkId } }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
