import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { windowCreatedOp } from '../../lib/maintenance/maintenance-items.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * /v1/maintenance on both runtimes: create, read, replace and delete windows; refusals of bad
 * windows (400 with the field); read-only keys read but do not write; another tenant's window is
 * 404; a covered entity's alert is logged skipped and its records say in_maintenance; and the MCP
 * tools list and create windows (create_maintenance hidden from read-only callers).
 */

const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult | undefined): any => result?.structuredContent;

describe.each(runtimes)('maintenance windows ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let readOnlyKey = '';
  let entityId = '';
  let checkId = '';
  const clock = createFakeClock(T0);

  const req = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const oneOff = (extra: Record<string, unknown> = {}) => ({
    name: 'Deploy',
    entity_ids: [entityId],
    starts_at: iso(T0 - 60_000),
    ends_at: iso(T0 + 3_600_000),
    ...extra,
  });

  beforeAll(async () => {
    api = await start({ clock });
    readOnlyKey = (await req('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    entityId = (await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'API' })).body.id;
    checkId = (
      await req('POST', '/v1/checks', {
        entity_id: entityId,
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
      })
    ).body.id;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('creates, reads, replaces and deletes a window', async () => {
    const created = await req('POST', '/v1/maintenance', oneOff());
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Deploy',
      entity_ids: [entityId],
      blueprint_slugs: [],
      include_dependents: false,
      starts_at: iso(T0 - 60_000),
      ends_at: iso(T0 + 3_600_000),
      cron: null,
      duration_seconds: null,
      timezone: null,
      active: true,
    });
    const id = created.body.id;
    expect((await req('GET', `/v1/maintenance/${id}`)).body).toEqual(created.body);
    expect((await req('GET', '/v1/maintenance')).body.windows.map((w: { id: string }) => w.id)).toContain(id);

    const replaced = await req('PUT', `/v1/maintenance/${id}`, {
      name: 'Nightly',
      blueprint_slugs: ['service'],
      cron: '30 2 * * *',
      duration_seconds: 1800,
      timezone: 'Europe/Berlin',
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({
      id,
      name: 'Nightly',
      entity_ids: [],
      blueprint_slugs: ['service'],
      starts_at: null,
      cron: '30 2 * * *',
      duration_seconds: 1800,
      timezone: 'Europe/Berlin',
      active: false,
    });

    expect((await req('DELETE', `/v1/maintenance/${id}`)).status).toBe(204);
    expect((await req('GET', `/v1/maintenance/${id}`)).status).toBe(404);
    expect((await req('DELETE', `/v1/maintenance/${id}`)).status).toBe(404);
  });

  it.each([
    ['ends before it starts', { ends_at: iso(T0 - 120_000) }, 'ends_at'],
    ['covers nothing', { entity_ids: [] }, 'entity_ids'],
    ['lists an unknown entity', { entity_ids: ['ent_01J0000000000000000000000A'] }, 'entity_ids.0'],
    ['has a name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
    [
      'lists over 100 entities',
      { entity_ids: Array(101).fill('ent_01J0000000000000000000000A') },
      'entity_ids',
    ],
    [
      'lists over 20 blueprints',
      { blueprint_slugs: Array.from({ length: 21 }, (_, i) => `bp${i}`) },
      'blueprint_slugs',
    ],
    ['mixes one-off and recurring', { cron: '0 2 * * *', duration_seconds: 600 }, 'cron'],
  ])('refuses a window that %s (400)', async (_what, extra, path) => {
    const res = await req('POST', '/v1/maintenance', oneOff(extra));
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it.each([
    ['a 6-field cron', { cron: '0 0 2 * * *', duration_seconds: 600 }, 'cron'],
    ['a cron that does not parse', { cron: '61 2 * * *', duration_seconds: 600 }, 'cron'],
    ['an unknown timezone', { cron: '0 2 * * *', duration_seconds: 600, timezone: 'Mars/Base' }, 'timezone'],
    ['no duration', { cron: '0 2 * * *' }, 'duration_seconds'],
  ])('refuses a recurring window with %s (400)', async (_what, schedule, path) => {
    const res = await req('POST', '/v1/maintenance', { name: 'R', entity_ids: [entityId], ...schedule });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('names the entities it covers in every answer, one deleted left out', async () => {
    const gone = (await req('POST', '/v1/blueprints/service/entities', { slug: 'old', name: 'Old box' })).body
      .id;
    const named = [{ id: entityId, name: 'API', blueprint_slug: 'service', slug: 'api' }];
    const created = await req(
      'POST',
      '/v1/maintenance',
      oneOff({ name: 'Named', entity_ids: [entityId, gone] }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.entities).toEqual([
      ...named,
      { id: gone, name: 'Old box', blueprint_slug: 'service', slug: 'old' },
    ]);
    const { id } = created.body;
    expect((await req('DELETE', `/v1/blueprints/service/entities/old`)).status).toBe(204);
    expect((await req('GET', `/v1/maintenance/${id}`)).body.entities).toEqual(named);
    const listed = (await req('GET', '/v1/maintenance')).body.windows.find(
      (w: { id: string }) => w.id === id,
    );
    expect(listed.entity_ids).toEqual([entityId, gone]);
    expect(listed.entities).toEqual(named);
    const replaced = await req(
      'PUT',
      `/v1/maintenance/${id}`,
      oneOff({ name: 'Named', entity_ids: [entityId] }),
    );
    expect(replaced.body.entities).toEqual(named);
    await req('DELETE', `/v1/maintenance/${id}`);
  });

  it("never names another tenant's entity, even one its stored window names", async () => {
    const other = await api.createTenant('Initech');
    // The API refuses a foreign id; a record written past it must still not learn the name.
    const now = isoTime(T0);
    const base = { name: 'Foreign', entity_ids: [entityId], blueprint_slugs: [], include_dependents: false };
    const schedule = { starts_at: now, ends_at: now, cron: null, duration_seconds: null, timezone: null };
    const notice = {
      announce: false,
      announce_from: null,
      announce_lead_seconds: null,
      announced_at: null,
      public_note: null,
    };
    const record = { id: newId('mnt', T0), tenant_id: other.tenantId, ...base, ...schedule, ...notice };
    await api.table.transact([windowCreatedOp({ ...record, created_at: now, updated_at: now, version: 1 })]);
    const read = await req('GET', `/v1/maintenance/${record.id}`, undefined, other.key);
    expect(read.status, read.text).toBe(200);
    expect(read.body.entity_ids).toEqual([entityId]);
    expect(read.body.entities).toEqual([]);
    expect((await req('GET', '/v1/maintenance', undefined, other.key)).body.windows[0].entities).toEqual([]);
    expect(read.text).not.toContain('API');
  });

  it('lets read-only keys read windows but not write them', async () => {
    const { id } = (await req('POST', '/v1/maintenance', oneOff({ name: 'RO' }))).body;
    expect((await req('GET', `/v1/maintenance/${id}`, undefined, readOnlyKey)).status).toBe(200);
    expect((await req('GET', '/v1/maintenance', undefined, readOnlyKey)).status).toBe(200);
    expect((await req('POST', '/v1/maintenance', oneOff(), readOnlyKey)).status).toBe(403);
    expect((await req('PUT', `/v1/maintenance/${id}`, oneOff(), readOnlyKey)).status).toBe(403);
    expect((await req('DELETE', `/v1/maintenance/${id}`, undefined, readOnlyKey)).status).toBe(403);
    await req('DELETE', `/v1/maintenance/${id}`);
  });

  it("answers 404 for another tenant's window, and refuses its entities", async () => {
    const { id } = (await req('POST', '/v1/maintenance', oneOff({ name: 'Mine' }))).body;
    const other = await api.createTenant('Other');
    expect((await req('GET', `/v1/maintenance/${id}`, undefined, other.key)).status).toBe(404);
    expect((await req('DELETE', `/v1/maintenance/${id}`, undefined, other.key)).status).toBe(404);
    expect((await req('GET', '/v1/maintenance', undefined, other.key)).body.windows).toEqual([]);
    const borrowed = await req('POST', '/v1/maintenance', oneOff(), other.key);
    expect(borrowed.status, borrowed.text).toBe(400);
    await req('DELETE', `/v1/maintenance/${id}`);
  });

  it('logs a covered entity’s alert skipped and marks it in_maintenance', async () => {
    const { id } = (await req('POST', '/v1/maintenance', oneOff({ name: 'Upgrade' }))).body;
    const res = await req('POST', `/v1/checks/${checkId}/results`, { success: false, latency_ms: 5 });
    expect(res.status, res.text).toBe(201);
    await api.drainChanges();
    await api.runNotifyJobs();
    await expect
      .poll(async () => (await req('GET', `/v1/notify/logs?check_id=${checkId}`)).body.logs, {
        timeout: 10_000,
      })
      .toEqual([
        expect.objectContaining({ kind: 'alert', status: 'skipped', reason: 'maintenance: Upgrade' }),
      ]);
    const board = (await req('GET', '/v1/status')).body;
    expect(board.entities.find((e: { id: string }) => e.id === entityId)?.in_maintenance).toBe(true);
    expect((await req('GET', '/v1/blueprints/service/entities/api')).body.in_maintenance).toBe(true);

    await req('DELETE', `/v1/maintenance/${id}`);
    expect((await req('GET', '/v1/blueprints/service/entities/api')).body.in_maintenance).toBe(false);
  });

  it('offers list_maintenance to every caller and create_maintenance to writers only (MCP)', async () => {
    const admin: Principal = {
      tenantId: api.tenantId,
      userId: 'usr_agent',
      keyId: 'key_agent',
      role: 'admin',
      readOnly: false,
    };
    const viewer: Principal = { ...admin, keyId: 'key_viewer', readOnly: true };
    const registered = await req('POST', '/v1/skills/builtin/incident-ops');

    expect(registered.status, registered.text).toBe(201);
    const made = await api.app.tools.call(admin, 'create_maintenance', {
      name: 'Agent work',
      entity_ids: [entityId],
      starts_at: iso(T0),
      ends_at: iso(T0 + 600_000),
    });
    expect(made?.isError, JSON.stringify(made)).toBeFalsy();
    expect(data(made).window).toMatchObject({ name: 'Agent work', active: true });
    const bad = await api.app.tools.call(admin, 'create_maintenance', { name: 'Nothing' });
    expect(bad?.isError).toBe(true);

    const listed = data(await api.app.tools.call(viewer, 'list_maintenance', {}));
    expect(listed.windows.map((w: { name: string }) => w.name)).toContain('Agent work');
    const names = (await api.app.tools.list(viewer)).map((t) => t.name);
    expect(names).toContain('list_maintenance');
    expect(names).not.toContain('create_maintenance');
    const tools = await api.app.tools.list(admin);
    expect(tools.find((t) => t.name === 'create_maintenance')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    expect(tools.find((t) => t.name === 'list_maintenance')?.annotations?.readOnlyHint).toBe(true);
    // A tool a read-only caller may not use is, for it, unknown.
    expect(await api.app.tools.call(viewer, 'create_maintenance', { name: 'x' })).toBeUndefined();
  });
});
