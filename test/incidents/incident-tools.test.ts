import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSdkClient } from '../mcp/sdk-client.ts';
import { runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { useIncidentApi } from './use-incident-api.ts';

/** The incident MCP tools through the official SDK client, in both runtimes. */
describe.each(runtimes)('incident MCP tools ($runtime)', ({ start }) => {
  const { api, call, fx } = useIncidentApi(start);
  let client: Client;
  let readOnlyClient: Client;
  let incidentId: string;
  let entityId: string;

  beforeAll(async () => {
    await enableToolsets(api(), api().adminKey);
    const made = await fx.entityWithCheck('API');
    entityId = made.entityId;
    await fx.result(made.checkId, true);
    await fx.result(made.checkId, false);
    incidentId = (await call('GET', `/v1/incidents?entity_id=${entityId}`, undefined, 200)).incidents[0].id;
    client = await connectSdkClient(api(), api().adminKey);
    const ro = await call('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true }, 201);
    readOnlyClient = await connectSdkClient(api(), ro.key);
  });
  afterAll(async () => {
    await client.close();
    await readOnlyClient.close();
  });

  it('lists the tools with their fixed annotations; read-only keys see only list_incidents', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('acknowledge_incident')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('add_incident_note')?.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
    });
    expect(byName.get('list_incidents')?.annotations).toMatchObject({ readOnlyHint: true });
    const roNames = (await readOnlyClient.listTools()).tools.map((t) => t.name);
    expect(roNames).toContain('list_incidents');
    expect(roNames).not.toContain('acknowledge_incident');
    expect(roNames).not.toContain('add_incident_note');
  });

  it('list_incidents filters by state; its old hours argument still lists transitions', async () => {
    const open = await client.callTool({ name: 'list_incidents', arguments: { state: 'open' } });
    expect(open.isError).toBeFalsy();
    expect(open.structuredContent).toMatchObject({
      state: 'open',
      incidents: [{ id: incidentId, state: 'open' }],
    });
    const resolved = await client.callTool({ name: 'list_incidents', arguments: { state: 'resolved' } });
    expect(resolved.structuredContent).toMatchObject({ incidents: [] });
    const old = await client.callTool({ name: 'list_incidents', arguments: { hours: 1 } });
    expect(old.structuredContent).toMatchObject({ hours: 1, truncated: false });
    const transitions = (old.structuredContent as { incidents: { to_state: string }[] }).incidents;
    expect(transitions.map((t) => t.to_state)).toEqual(['down', 'up']);
  });

  it('acknowledge_incident and add_incident_note change the incident; errors are tool errors', async () => {
    const acked = await client.callTool({
      name: 'acknowledge_incident',
      arguments: { incident_id: incidentId },
    });
    expect(acked.isError).toBeFalsy();
    expect(acked.structuredContent).toMatchObject({ incident: { id: incidentId, state: 'acknowledged' } });
    const noted = await client.callTool({
      name: 'add_incident_note',
      arguments: { incident_id: incidentId, text: 'looking at it' },
    });
    expect(noted.isError).toBeFalsy();
    const detail = await call('GET', `/v1/incidents/${incidentId}`, undefined, 200);
    expect(detail.timeline.filter((e: { type: string }) => e.type === 'note')).toMatchObject([
      { text: 'looking at it' },
    ]);
    // A note of whitespace alone is a tool error, as it is a 400 on the route.
    const blank = await client.callTool({
      name: 'add_incident_note',
      arguments: { incident_id: incidentId, text: '  \n\t ' },
    });
    expect(blank.isError).toBe(true);
    expect(JSON.stringify(blank.content)).toContain('Write the note: it holds only spaces.');
    const missing = await client.callTool({
      name: 'acknowledge_incident',
      arguments: { incident_id: 'inc_00000000000000000000000000' },
    });
    expect(missing.isError).toBe(true);
    // A read-only key's tools/list hides the tool, so calling it is calling an unknown tool.
    await expect(
      readOnlyClient.callTool({ name: 'acknowledge_incident', arguments: { incident_id: incidentId } }),
    ).rejects.toThrow(/unknown tool/);
  });
});
