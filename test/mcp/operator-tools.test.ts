import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useIncidentApi } from '../incidents/use-incident-api.ts';
import { runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * The operator's write tools (issue 56 part 4) through the official SDK client, in both runtimes:
 * update_check and delete_check answer a dry run unless apply is true; silence_check,
 * start_maintenance and resolve_incident change what the API shows; read-only keys neither see nor
 * call them; another tenant's objects are not found; each call is in the audit log with the key.
 */

const OPERATOR_TOOLS = [
  'update_check',
  'delete_check',
  'silence_check',
  'start_maintenance',
  'resolve_incident',
];

describe.each(runtimes)('operator MCP tools ($runtime)', ({ start }) => {
  const { api, call, fx } = useIncidentApi(start);
  let admin: Client;
  let viewer: Client;
  let stranger: Client;
  let keyId: string;

  const tool = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const data = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
  const lastAudit = async () => (await call('GET', '/v1/audit?limit=1', undefined, 200)).entries[0];

  beforeAll(async () => {
    await enableToolsets(api(), api().adminKey);
    admin = await connectSdkClient(api(), api().adminKey);
    keyId = (await call('GET', '/v1/me', undefined, 200)).key.id;
    const ro = await call('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true }, 201);
    viewer = await connectSdkClient(api(), ro.key);
    const other = await api().createTenant('Stranger');
    await enableToolsets(api(), other.key);
    stranger = await connectSdkClient(api(), other.key);
  });
  afterAll(async () => {
    await Promise.all([admin, viewer, stranger].map((c) => c?.close()));
  });

  it('lists the operator tools with their annotations to writers only, and refuses them to read-only keys', async () => {
    const listed = new Map((await admin.listTools()).tools.map((t) => [t.name, t.annotations]));
    for (const name of OPERATOR_TOOLS) expect(listed.get(name)?.readOnlyHint, name).toBe(false);
    expect(listed.get('delete_check')).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(listed.get('update_check')).toMatchObject({ destructiveHint: true });
    expect(listed.get('silence_check')).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(listed.get('start_maintenance')).toMatchObject({ destructiveHint: false, idempotentHint: false });
    const seen = (await viewer.listTools()).tools.map((t) => t.name);
    for (const name of OPERATOR_TOOLS) {
      expect(seen).not.toContain(name);
      await expect(viewer.callTool({ name, arguments: {} }), name).rejects.toMatchObject({ code: -32602 });
    }
  });

  it('update_check answers the fields it would change and changes nothing until apply: true', async () => {
    const { checkId } = await fx.entityWithCheck('Billing');
    const dry = await tool(admin, 'update_check', { check_id: checkId, changes: { name: 'Nightly export' } });
    expect(dry.isError, text(dry)).toBeFalsy();
    expect(data(dry).dry_run).toBe(true);
    expect(data(dry).changes).toEqual([
      { field: 'name', before: expect.any(String), after: 'Nightly export' },
      { field: 'name_is_default', before: true, after: false },
    ]);
    expect(text(dry)).toContain('Nothing was changed');
    expect((await call('GET', `/v1/checks/${checkId}`, undefined, 200)).name).not.toBe('Nightly export');

    const applied = await tool(admin, 'update_check', {
      check_id: checkId,
      changes: { name: 'Nightly export' },
      apply: true,
    });
    expect(data(applied)).toMatchObject({ dry_run: false, check: { id: checkId, name: 'Nightly export' } });
    expect((await call('GET', `/v1/checks/${checkId}`, undefined, 200)).name).toBe('Nightly export');
    expect(await lastAudit()).toMatchObject({
      actor: { type: 'key', id: keyId },
      via: 'mcp',
      action: 'mcp.update_check',
      target: { type: 'check', id: checkId },
    });

    const invalid = await tool(admin, 'update_check', {
      check_id: checkId,
      changes: { interval_seconds: -1 },
    });
    expect(invalid.isError).toBe(true);
    const foreign = await tool(stranger, 'update_check', {
      check_id: checkId,
      changes: { name: 'x' },
      apply: true,
    });
    expect(text(foreign)).toMatch(/^NOT_FOUND/);
    expect((await call('GET', `/v1/checks/${checkId}`, undefined, 200)).name).toBe('Nightly export');
  });

  it('delete_check answers what it would delete and deletes only with apply: true', async () => {
    const { checkId } = await fx.entityWithCheck('Reports');
    const foreign = await tool(stranger, 'delete_check', { check_id: checkId, apply: true });
    expect(text(foreign)).toMatch(/^NOT_FOUND/);
    const dry = await tool(admin, 'delete_check', { check_id: checkId });
    expect(data(dry)).toMatchObject({ dry_run: true, deletes: { check: { id: checkId } } });
    await call('GET', `/v1/checks/${checkId}`, undefined, 200);

    const applied = await tool(admin, 'delete_check', { check_id: checkId, apply: true });
    expect(data(applied)).toMatchObject({ dry_run: false, deleted: { check: { id: checkId } } });
    await call('GET', `/v1/checks/${checkId}`, undefined, 404);
    expect(await lastAudit()).toMatchObject({
      actor: { type: 'key', id: keyId },
      action: 'mcp.delete_check',
      target: { type: 'check', id: checkId },
    });
  });

  it('silence_check sets and lifts the check policy’s silence', async () => {
    const { checkId } = await fx.entityWithCheck('Mailer');
    expect(text(await tool(stranger, 'silence_check', { check_id: checkId }))).toMatch(/^NOT_FOUND/);
    const on = await tool(admin, 'silence_check', { check_id: checkId });
    expect(data(on)).toMatchObject({ check_id: checkId, silenced: true });
    expect((await call('GET', `/v1/checks/${checkId}/policy`, undefined, 200)).silenced).toBe(true);
    expect(await lastAudit()).toMatchObject({ actor: { id: keyId }, action: 'mcp.silence_check' });
    await tool(admin, 'silence_check', { check_id: checkId, silenced: false });
    expect((await call('GET', `/v1/checks/${checkId}/policy`, undefined, 200)).silenced).toBe(false);
  });

  it('start_maintenance covers a check’s entity from now for the duration', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Search');
    expect(
      text(await tool(stranger, 'start_maintenance', { check_ids: [checkId], duration_minutes: 30 })),
    ).toMatch(/^NOT_FOUND/);
    const started = await tool(admin, 'start_maintenance', {
      name: 'Reindex',
      check_ids: [checkId],
      duration_minutes: 30,
    });
    expect(started.isError, text(started)).toBeFalsy();
    const window = data(started).window as { id: string; starts_at: string; ends_at: string };
    expect(window).toMatchObject({ name: 'Reindex', entity_ids: [entityId], active: true });
    expect(Date.parse(window.ends_at) - Date.parse(window.starts_at)).toBe(30 * 60_000);
    expect((await call('GET', `/v1/maintenance/${window.id}`, undefined, 200)).active).toBe(true);
    expect(await lastAudit()).toMatchObject({
      actor: { id: keyId },
      action: 'mcp.start_maintenance',
      target: { type: 'maintenance_window', id: window.id },
    });
    const none = await tool(admin, 'start_maintenance', { duration_minutes: 30 });
    expect(text(none)).toContain('entity_ids');
  });

  it('resolve_incident resolves an open incident by hand, as POST /v1/incidents/{id}/resolve does', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Gateway');
    await fx.result(checkId, true);
    await fx.result(checkId, false);
    const [open] = (await call('GET', `/v1/incidents?entity_id=${entityId}`, undefined, 200)).incidents;
    expect(open.state).toBe('open');
    expect(text(await tool(stranger, 'resolve_incident', { incident_id: open.id }))).toMatch(/^NOT_FOUND/);

    const resolved = await tool(admin, 'resolve_incident', { incident_id: open.id });
    expect(data(resolved)).toMatchObject({ incident: { id: open.id, state: 'resolved' } });
    const detail = await call('GET', `/v1/incidents/${open.id}`, undefined, 200);
    expect(detail.state).toBe('resolved');
    expect(detail.timeline.at(-1)).toMatchObject({ type: 'resolution', transition_id: null });
    expect(detail.timeline.at(-1).reason).toMatch(/^resolved by hand by usr_/);
    expect(await lastAudit()).toMatchObject({
      actor: { id: keyId },
      action: 'mcp.resolve_incident',
      target: { type: 'incident', id: open.id },
    });
    // The route answers the same, and a second resolution keeps the first.
    const again = await call('POST', `/v1/incidents/${open.id}/resolve`, undefined, 200);
    expect(again).toMatchObject({ state: 'resolved', resolved_at: detail.resolved_at });
  });
});
