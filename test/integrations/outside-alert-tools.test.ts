import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSdkClient } from '../mcp/sdk-client.ts';
import { alertmanagerWebhook } from '../support/alertmanager-webhook.ts';
import { type ApiHarness, adminCall, bothRuntimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';

/**
 * The outside-alert MCP tools of incident-ops (issue 77 point 5) through the official SDK client:
 * list_outside_alerts by entity (either way) and status; acknowledge_outside_alert marks an alert
 * and leaves its entity down; resolve_outside_alert resolves it as its sender would, and the
 * entity's outside check comes up; an unknown alert is not found; read-only keys only list.
 */
describe.each(bothRuntimes)('outside-alert MCP tools ($runtime)', ({ start }) => {
  let api: ApiHarness;
  let client: Client;
  let readOnly: Client;
  let integrationId: string;
  let token: string;

  const entityState = async () =>
    (await adminCall(api, 'GET', '/v1/blueprints/service/entities/orders-db')).state;
  const ingest = async (fingerprint: string, severity: string) => {
    const res = await api.request('POST', `/in/${token}`, {
      body: alertmanagerWebhook([
        { fingerprint, service: 'orders-db', severity, summary: `${fingerprint} fired` },
      ]),
    });
    expect(res.status, res.text).toBe(202);
    await api.drainChanges();
  };

  beforeAll(async () => {
    api = await start();
    await enableToolsets(api, api.adminKey);
    await adminCall(api, 'POST', '/v1/blueprints', { slug: 'service', name: 'Service', fields: [] });
    await adminCall(api, 'POST', '/v1/blueprints/service/entities', {
      slug: 'orders-db',
      name: 'Orders DB',
      fields: {},
    });
    const made = await adminCall(api, 'POST', '/v1/integrations', {
      name: 'Prometheus',
      kind: 'alertmanager',
      entity_rules: [{ match: {}, entity: 'service/{{labels.service}}' }],
    });
    integrationId = made.id;
    token = made.token;
    await ingest('db-down', 'critical');
    client = await connectSdkClient(api, api.adminKey);
    const ro = await adminCall(api, 'POST', '/v1/auth/keys', { label: 'ro', is_read_only: true });
    readOnly = await connectSdkClient(api, ro.key);
  });
  afterAll(async () => {
    await client?.close();
    await readOnly?.close();
    await api?.close();
  });

  it('lists the open alerts of an entity named by its blueprint and slug', async () => {
    const listed = await client.callTool({
      name: 'list_outside_alerts',
      arguments: { blueprint_slug: 'service', entity_slug: 'orders-db' },
    });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toMatchObject({
      alerts: [
        { integration_id: integrationId, dedup_key: 'db-down', status: 'triggered', severity: 'critical' },
      ],
    });
    const roNames = (await readOnly.listTools()).tools.map((t) => t.name);
    expect(roNames).toContain('list_outside_alerts');
    expect(roNames).not.toContain('resolve_outside_alert');
  });

  it('acknowledges an alert (the entity stays down), then resolves it (the entity comes up)', async () => {
    const args = { integration_id: integrationId, dedup_key: 'db-down' };
    const acked = await client.callTool({ name: 'acknowledge_outside_alert', arguments: args });
    expect(acked.isError).toBeFalsy();
    expect(acked.structuredContent).toMatchObject({ alert: { status: 'acknowledged' } });
    expect(await entityState()).toBe('down');
    const resolved = await client.callTool({ name: 'resolve_outside_alert', arguments: args });
    expect(resolved.structuredContent).toMatchObject({ alert: { status: 'resolved' } });
    await api.drainChanges();
    expect(await entityState()).toBe('up');
  });

  it('answers an unknown alert, or another tenant’s integration, not found', async () => {
    const unknown = await client.callTool({
      name: 'resolve_outside_alert',
      arguments: { integration_id: integrationId, dedup_key: 'never-sent' },
    });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain('not found');
    const other = await api.createTenant('Other');
    const foreign = await connectSdkClient(api, other.key);
    await enableToolsets(api, other.key);
    const theirs = await foreign.callTool({
      name: 'resolve_outside_alert',
      arguments: { integration_id: integrationId, dedup_key: 'db-down' },
    });
    expect(theirs.isError).toBe(true);
    expect(JSON.stringify(theirs.content)).toContain('not found');
    await foreign.close();
  });
});
