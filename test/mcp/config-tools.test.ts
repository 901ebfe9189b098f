import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * plan_config and apply_config through the official MCP SDK client on both runtimes: a plan lists
 * the document's changes and changes nothing; an admin's apply creates them and a second plan is
 * empty; a member's apply is refused, and a read-only key neither lists nor calls apply_config.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/** A document of one blueprint and one entity, as YAML text (the form an agent most often writes). */
const yamlDocument = (blueprint: string) => `apiVersion: vigil/v1
kind: Config
blueprints:
  - slug: ${blueprint}
    name: Service
entities:
  - blueprint: ${blueprint}
    slug: api
    name: Checkout API
`;

describe.each(runtimes)('MCP plan_config and apply_config ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let admin: Client;
  let member: Client;
  let readOnly: Client;

  const post = async (path: string, body: unknown) => {
    const res = await api.request('POST', path, { key: api.adminKey, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const blueprintStatus = async (slug: string) =>
    (await api.request('GET', `/v1/blueprints/${slug}`, { key: api.adminKey })).status;

  beforeAll(async () => {
    api = await start();
    await enableToolsets(api, api.adminKey);
    const invitation = await post('/v1/settings/users/invite', {
      email: `member-${Math.random().toString(36).slice(2)}@example.com`,
      role: 'member',
    });
    const accepted = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invitation.token, name: 'Member' },
    });
    expect(accepted.status, accepted.text).toBe(201);
    admin = await connectSdkClient(api, api.adminKey);
    member = await connectSdkClient(api, accepted.body.key);
    readOnly = await connectSdkClient(
      api,
      (await post('/v1/auth/keys', { label: 'reader', is_read_only: true })).key,
    );
  });
  afterAll(async () => {
    await Promise.all([admin?.close(), member?.close(), readOnly?.close()]);
    await api?.close();
  });

  it('plans a document: the changes listed, nothing changed', async () => {
    const result = await call(member, 'plan_config', { document: yamlDocument('service') });
    expect(result.isError, text(result)).toBeFalsy();
    expect(data(result).changes).toEqual([
      expect.objectContaining({ op: 'create', kind: 'blueprints', id: 'service' }),
      expect.objectContaining({ op: 'create', kind: 'entities', id: 'service/api' }),
    ]);
    expect(text(result)).toContain('+ create entity service/api');
    expect(await blueprintStatus('service')).toBe(404);
  });

  it("applies an admin's document, and then plans nothing for it", async () => {
    const document = yamlDocument('service');
    const applied = await call(admin, 'apply_config', { document });
    expect(applied.isError, text(applied)).toBeFalsy();
    expect(data(applied)).toMatchObject({ applied: true, summary: { created: 2, failed: 0 } });
    expect(await blueprintStatus('service')).toBe(200);
    const entity = await api.request('GET', '/v1/blueprints/service/entities/api', { key: api.adminKey });
    expect(entity.body).toMatchObject({ name: 'Checkout API' });
    const again = await call(admin, 'plan_config', { document });
    expect(data(again).changes).toEqual([]);
    expect(text(again)).toContain('No changes.');
  });

  it("refuses a member's apply and changes nothing", async () => {
    const refused = await call(member, 'apply_config', { document: yamlDocument('database') });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/FORBIDDEN/);
    expect(await blueprintStatus('database')).toBe(404);
  });

  it('offers a read-only key plan_config but not apply_config', async () => {
    const names = (await readOnly.listTools()).tools.map((t) => t.name);
    expect(names).toContain('plan_config');
    expect(names).not.toContain('apply_config');
    await expect(call(readOnly, 'apply_config', { document: yamlDocument('database') })).rejects.toThrow(
      /unknown tool: apply_config/,
    );
    expect(await blueprintStatus('database')).toBe(404);
  });
});
