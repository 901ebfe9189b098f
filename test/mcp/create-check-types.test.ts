import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import {
  type ApiHarness,
  bothRuntimes,
  type LocalHarness,
  startLocalHarness,
} from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { agentAdmin } from './agent.ts';

/**
 * MCP create_check with every registered check type, in both runtimes: a type's config under the
 * API's rules, the first probe through the app's prober (push checks are not probed), a bad config
 * answered with the field, and a type the runtime cannot run (icmp in the cloud) refused with its
 * sentence. Nothing leaves 127.0.0.1: the tcp check probes a loopback listener, the domain check
 * names a TLD no RDAP server serves, so its probe fails before any request.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult | undefined): any => result?.structuredContent;
const text = (result: CallToolResult | undefined) =>
  result?.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n') ?? '';

describe.each(bothRuntimes)(
  'MCP create_check of every check type ($runtime runtime)',
  ({ runtime, start }) => {
    let api: ApiHarness;
    let listener: Server;
    let port = 0;
    let connections = 0;
    let entityId = '';
    let admin: Principal;

    const call = (args: Record<string, unknown>) =>
      api.app.tools.call(admin, 'create_check', { entity_id: entityId, ...args });
    const listed = async () => {
      const res = await api.request('GET', `/v1/checks?entity_id=${entityId}`, { key: api.adminKey });
      expect(res.status, res.text).toBe(200);
      return (res.body.checks ?? res.body) as { id: string; check_type: string }[];
    };

    beforeAll(async () => {
      listener = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      listener.listen(0, '127.0.0.1');
      await once(listener, 'listening');
      port = (listener.address() as AddressInfo).port;
      api = await start({
        scheduler: false,
        env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' },
      });
      admin = agentAdmin(api.tenantId);
      entityId = await newEntity(api);
      await enableToolsets(api, api.adminKey);
    });
    afterAll(async () => {
      await api?.close();
      listener?.close();
    });

    it('offers the registry’s check types, http by default', () => {
      const tool = CATALOG_OPS_MANIFEST.tools.find((t) => t.name === 'create_check');
      const schema = tool?.inputSchema as {
        properties: Record<string, { enum?: string[]; default?: unknown }>;
      };
      expect(schema.properties.check_type?.enum).toEqual(
        expect.arrayContaining(['http', 'tcp', 'push', 'domain']),
      );
      expect(schema.properties.check_type?.default).toBe('http');
    });

    it('probes a tcp target once, then creates the tcp check', async () => {
      const before = connections;
      const result = await call({ check_type: 'tcp', config: { host: '127.0.0.1', port } });
      expect(result?.isError, text(result)).toBeFalsy();
      expect(data(result).probe).toMatchObject({ success: true });
      expect(connections).toBeGreaterThan(before);
      expect(data(result).check).toMatchObject({
        check_type: 'tcp',
        entity_id: entityId,
        name: `TCP 127.0.0.1:${port}`,
        config: { host: '127.0.0.1', port },
      });
      expect(text(result)).toContain(`Created tcp check "TCP 127.0.0.1:${port}"`);
      expect(text(result)).toContain(`Probed tcp 127.0.0.1:${port}: in `);
      expect((await listed()).map((c) => c.id)).toContain(data(result).check.id);
    });

    it('creates a domain check after its probe (no RDAP server for .invalid: nothing is sent)', async () => {
      const result = await call({ check_type: 'domain', config: { domain: 'vigil-test.invalid' } });
      expect(result?.isError, text(result)).toBeFalsy();
      expect(data(result).probe).toMatchObject({ success: false });
      expect(data(result).probe.error_message).toContain('no RDAP server is known for .invalid');
      expect(data(result).check).toMatchObject({
        check_type: 'domain',
        config: { domain: 'vigil-test.invalid' },
      });
    });

    it('creates a push check without probing it, down on its first failure', async () => {
      const result = await call({ check_type: 'push', interval_seconds: 7 * 86_400, name: 'Nightly backup' });
      expect(result?.isError, text(result)).toBeFalsy();
      expect(data(result).probe).toBeUndefined();
      expect(data(result).check).toMatchObject({
        check_type: 'push',
        name: 'Nightly backup',
        failure_threshold: 1,
      });
      expect(text(result)).toContain('checks are not probed');
    });

    it('keeps the failure threshold the caller gives, and the API default for a probed type', async () => {
      const patient = await call({ check_type: 'push', name: 'Flaky export', failure_threshold: 4 });
      const tcp = await call({ check_type: 'tcp', config: { host: '127.0.0.1', port }, name: 'Port' });
      const strict = await call({
        check_type: 'tcp',
        config: { host: '127.0.0.1', port },
        name: 'Strict port',
        failure_threshold: 1,
      });

      expect(data(patient).check).toMatchObject({ check_type: 'push', failure_threshold: 4 });
      expect(data(tcp).check).toMatchObject({ check_type: 'tcp', failure_threshold: 3 });
      expect(data(strict).check).toMatchObject({ check_type: 'tcp', failure_threshold: 1 });
      const stored = await api.request('GET', `/v1/checks/${data(patient).check.id}`, { key: api.adminKey });
      expect(stored.body.failure_threshold).toBe(4);
    });

    it('dry_run probes a tcp target and creates nothing', async () => {
      const before = (await listed()).length;
      const result = await call({ check_type: 'tcp', config: { host: '127.0.0.1', port }, dry_run: true });
      expect(data(result)).toMatchObject({ dry_run: true, probe: { success: true } });
      expect(data(result).check).toBeUndefined();
      expect(await listed()).toHaveLength(before);
    });

    it('answers a bad config with the field and the sentence, creating nothing', async () => {
      const before = (await listed()).length;
      const badPort = await call({ check_type: 'tcp', config: { host: '127.0.0.1', port: 70_000 } });
      expect(badPort?.isError).toBe(true);
      expect(text(badPort)).toMatch(/^VALIDATION_ERROR: invalid check \(config\.port: [A-Z][^;]*\.\)$/);
      const missing = await call({ check_type: 'tcp' });
      expect(missing?.isError).toBe(true);
      expect(text(missing)).toContain('config');
      const urlOnTcp = await call({
        check_type: 'tcp',
        target_url: 'http://127.0.0.1/',
        config: { host: 'a', port },
      });
      expect(urlOnTcp?.isError).toBe(true);
      expect(text(urlOnTcp)).toContain('target_url: not used by tcp checks');
      const badDomain = await call({ check_type: 'domain', config: { domain: 'https://example.com/' } });
      expect(text(badDomain)).toContain('config.domain: Enter a registered domain name');
      const unknownType = await call({ check_type: 'carrier-pigeon' });
      expect(unknownType?.isError).toBe(true);
      expect(await listed()).toHaveLength(before);
    });

    if (runtime === 'lambda')
      it('refuses icmp checks in the cloud with the reason, before probing', async () => {
        const result = await call({ check_type: 'icmp', config: { host: '127.0.0.1' }, dry_run: true });
        expect(result?.isError).toBe(true);
        expect(text(result)).toContain('check_type');
        expect(text(result)).toContain('AWS Lambda does not give: run them on the local runtime');
      });
  },
);

describe('MCP create_check of a tcp check through the MCP SDK client (local runtime, streamable HTTP)', () => {
  let api: LocalHarness;
  let listener: Server;
  let client: Client;

  beforeAll(async () => {
    listener = createServer((socket) => socket.destroy());
    listener.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    api = await startLocalHarness({
      scheduler: false,
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await enableToolsets(api, api.adminKey);
    client = new Client({ name: 'vigil-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/v1/mcp', api.local.url), {
        requestInit: { headers: { Authorization: `Bearer ${api.adminKey}` } },
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
    listener?.close();
  });

  it('creates the check, and answers a bad config as an error result naming the field', async () => {
    const entity_id = await newEntity(api);
    const port = (listener.address() as AddressInfo).port;
    const created = (await client.callTool({
      name: 'create_check',
      arguments: { entity_id, check_type: 'tcp', config: { host: '127.0.0.1', port } },
    })) as CallToolResult;
    expect(created.isError, text(created)).toBeFalsy();
    expect(data(created).check).toMatchObject({ check_type: 'tcp', config: { host: '127.0.0.1', port } });
    const bad = (await client.callTool({
      name: 'create_check',
      arguments: { entity_id, check_type: 'tcp', config: { host: '127.0.0.1', port, tls: true } },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^VALIDATION_ERROR: invalid check \(config.*tls/);
  });
});
