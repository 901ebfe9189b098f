import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../lib/actions/items/execution-items.ts';
import type { Resolve } from '../../lib/egress/egress-guard.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { join } from '../auth/team-helpers.ts';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** Names the tests resolve: one public, one private, anything else fails like NXDOMAIN. */
const resolve: Resolve = async (host) => {
  if (host === 'hooks.example.com') return [{ address: '93.184.216.34', family: 4 }];
  if (host === 'intranet.example.com') return [{ address: '10.1.2.3', family: 4 }];
  if (host === '127.0.0.1') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

const BASE = { name: 'Restart', url: 'https://hooks.example.com/restart' };

/** An execution record of `actionId` as the runner stores one. */
function execution(tenantId: string, actionId: string, atMs: number): ExecutionRecord {
  const at = isoTime(atMs);
  return {
    id: newId('exe', atMs),
    tenant_id: tenantId,
    action_id: actionId,
    trigger: 'manual',
    dispatch_status: 'success',
    status_code: 200,
    latency_ms: 12,
    response_snippet: 'ok',
    error_message: null,
    pipeline_status: null,
    transition_id: null,
    vars: {},
    callback_token_hash: 'a'.repeat(64),
    callback_expires_at: isoTime(atMs + 86_400_000),
    pipeline_deadline_at: null,
    log_count: 0,
    created_at: at,
    updated_at: at,
  };
}

describe.each(runtimes)('actions CRUD ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let member: string;
  let viewer: string;
  const clock = createFakeClock(Date.parse('2026-03-01T10:00:00.000Z'));
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const create = async (body: Record<string, unknown>, key = api.adminKey) =>
    call('POST', '/v1/actions', { ...BASE, ...body }, key);

  beforeAll(async () => {
    api = await start({ clock, env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: { resolve } });
    viewer = (await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    member = (await join(api, api.adminKey, { email: 'member@example.com' })).key;
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates with the defaults and shows every header value as ********', async () => {
    const res = await create({ headers: { Authorization: 'Bearer s3cret', 'X-Team': 'ops' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Restart',
      url: BASE.url,
      method: 'POST',
      headers: { Authorization: '********', 'X-Team': '********' },
      body_template: '',
      trigger_type: 'manual',
      check_id: null,
      trigger_to_state: null,
      interval_seconds: null,
      timeout_ms: 10_000,
      pipeline_timeout_seconds: 3600,
      next_run_at: null,
    });
    expect(res.body.id).toMatch(/^act_[0-9A-Z]{26}$/);
    const stored = await api.app.actions.get(api.tenantId, res.body.id);
    expect(stored?.headers).toEqual({ Authorization: 'Bearer s3cret', 'X-Team': 'ops' });
    const one = await call('GET', `/v1/actions/${res.body.id}`, undefined, viewer);
    expect(one.body.headers).toEqual({ Authorization: '********', 'X-Team': '********' });
    const list = await call('GET', '/v1/actions', undefined, member);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('s3cret');
    expect(list.body.find((a: { id: string }) => a.id === res.body.id)?.headers.Authorization).toBe(
      '********',
    );
  });

  it('lets only admins write: members 403 FORBIDDEN, read-only keys 403 READ_ONLY', async () => {
    const made = (await create({})).body.id;
    for (const res of [
      await create({}, member),
      await call('PUT', `/v1/actions/${made}`, { name: 'x' }, member),
      await call('DELETE', `/v1/actions/${made}`, undefined, member),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    for (const res of [
      await create({}, viewer),
      await call('PUT', `/v1/actions/${made}`, { name: 'x' }, viewer),
      await call('DELETE', `/v1/actions/${made}`, undefined, viewer),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('READ_ONLY');
    }
    expect((await call('GET', `/v1/actions/${made}`, undefined, member)).body.name).toBe('Restart');
  });

  it('holds every field limit with 400 VALIDATION_ERROR', async () => {
    const headers21 = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    const headers20 = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`X-H${i}`, 'v']));
    // 'é' is two bytes: 8,192 of them are exactly 16 KB, one more is over.
    const bad: Record<string, unknown>[] = [
      { headers: headers21 },
      { headers: { 'Bad Name': 'v' } },
      { headers: { 'X-Inject': 'v\r\nX-Evil: 1' } },
      { body_template: 'é'.repeat(8193) },
      { timeout_ms: 99 },
      { timeout_ms: 15_001 },
      { method: 'TRACE' },
      { url: 'ftp://hooks.example.com/x' },
      { url: 'not a url' },
      { trigger_type: 'schedule' },
      { trigger_type: 'schedule', interval_seconds: 59 },
      { trigger_type: 'state_change' },
      { trigger_type: 'state_change', check_id: 'chk_nope' },
      { interval_seconds: 120 },
      { trigger_to_state: 'down' },
      { trigger_type: 'state_change', trigger_to_state: 'sideways' },
      { pipeline_timeout_seconds: 59 },
      { pipeline_timeout_seconds: 86_401 },
      { name: '' },
      { colour: 'blue' },
    ];
    for (const body of bad) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const ok = [
      { headers: headers20 },
      { body_template: 'é'.repeat(8192) },
      { timeout_ms: 100 },
      { timeout_ms: 15_000 },
      { method: 'GET' },
      { trigger_type: 'schedule', interval_seconds: 60 },
      { pipeline_timeout_seconds: 60 },
    ];
    for (const body of ok) expect((await create(body)).status, JSON.stringify(body).slice(0, 80)).toBe(201);
  });

  it('needs a state_change check of the tenant (another tenant’s check is 404) and takes empty as any state', async () => {
    const checkId = await newCheck(api, quietTcpCheck(await newEntity(api)));
    const other = await api.createTenant('Other');
    const otherEntity = await newEntity(api, { key: other.key });
    const foreignCheck = await newCheck(api, quietTcpCheck(otherEntity), other.key);
    const foreign = await create({ trigger_type: 'state_change', check_id: foreignCheck });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    const unknown = await create({ trigger_type: 'state_change', check_id: newId('chk') });
    expect(unknown.status).toBe(404);
    const any = await create({ trigger_type: 'state_change', check_id: checkId, trigger_to_state: '' });
    expect(any.status, any.text).toBe(201);
    expect(any.body).toMatchObject({ check_id: checkId, trigger_to_state: null });
    const down = await create({ trigger_type: 'state_change', check_id: checkId, trigger_to_state: 'down' });
    expect(down.body.trigger_to_state).toBe('down');
    const listed = await api.app.actions.listForCheck(checkId);
    expect(listed.map((a) => a.id).sort()).toEqual([any.body.id, down.body.id].sort());
  });

  it('refuses private, reserved and metadata URLs at create and checks a placeholder host only at run time', async () => {
    for (const url of [
      'http://10.0.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://intranet.example.com/hook',
      'http://no-such-host.example.com/hook',
    ]) {
      const res = await create({ url });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details?.[0]?.path).toBe('url');
    }
    expect((await create({ url: 'http://127.0.0.1:9/allow-listed' })).status).toBe(201);
    expect((await create({ url: 'https://{{host}}/hook?e={{entity_id}}' })).status).toBe(201);
    expect((await create({ url: 'https://hooks.example.com/{{entity_id}}' })).status).toBe(201);
    expect((await create({ url: 'https://intranet.example.com/{{entity_id}}' })).status).toBe(400);
  });

  it('holds 50 actions per tenant under concurrent creates with 403 LIMIT_EXCEEDED', async () => {
    const tenant = await api.createTenant('Busy');
    const answers = await Promise.all(
      Array.from({ length: 56 }, (_, i) =>
        api.request('POST', '/v1/actions', { key: tenant.key, body: { ...BASE, name: `a${i}` } }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(6);
    for (const r of refused) expect([r.status, r.body.code]).toEqual([403, 'LIMIT_EXCEEDED']);
    const list = await api.request('GET', '/v1/actions', { key: tenant.key });
    expect(list.body).toHaveLength(50);
    const gone = list.body[0].id;
    expect((await api.request('DELETE', `/v1/actions/${gone}`, { key: tenant.key })).status).toBe(204);
    const again = await api.request('POST', '/v1/actions', { key: tenant.key, body: BASE });
    expect(again.status, again.text).toBe(201);
  });

  it('updates given fields, keeps a header sent as ******** and schedules one interval ahead', async () => {
    const made = await create({ headers: { Authorization: 'Bearer old', 'X-Keep': 'k' } });
    const id = made.body.id;
    const res = await call('PUT', `/v1/actions/${id}`, {
      name: 'Renamed',
      headers: { Authorization: 'Bearer new', 'x-keep': '********' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', url: BASE.url, timeout_ms: 10_000 });
    expect(res.body.headers).toEqual({ Authorization: '********', 'x-keep': '********' });
    expect((await api.app.actions.get(api.tenantId, id))?.headers).toEqual({
      Authorization: 'Bearer new',
      'x-keep': 'k',
    });
    const unknown = await call('PUT', `/v1/actions/${id}`, { headers: { 'X-New': '********' } });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'VALIDATION_ERROR']);

    const scheduled = await call('PUT', `/v1/actions/${id}`, {
      trigger_type: 'schedule',
      interval_seconds: 300,
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.body.next_run_at).toBe(isoTime(clock.now() + 300_000));
    // The stored item as docs/data-model.md lays it out: its due-index entry follows the trigger type.
    const storedKey = { pk: `TENANT#${api.tenantId}`, sk: `ACTION#${id}` };
    const item = await api.table.get(storedKey);
    expect(item?.gsi2sk).toBe(`${scheduled.body.next_run_at}#${id}`);
    const manual = await call('PUT', `/v1/actions/${id}`, { trigger_type: 'manual' });
    expect(manual.body).toMatchObject({ interval_seconds: null, next_run_at: null });
    expect((await api.table.get(storedKey))?.gsi2pk).toBeUndefined();
    expect((await call('PUT', `/v1/actions/${newId('act')}`, { name: 'x' })).status).toBe(404);
  });

  it('pages executions newest first with a sealed cursor (limit 1 to 200)', async () => {
    const id = (await create({})).body.id;
    const seeded: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const record = execution(api.tenantId, id, clock.now() + i * 1000);
      expect(await api.app.executions.putNew(record)).toBe(true);
      seeded.push(record.id);
    }
    const first = await call('GET', `/v1/actions/${id}/executions?limit=2`, undefined, viewer);
    expect(first.status, first.text).toBe(200);
    expect(first.body.executions.map((e: { id: string }) => e.id)).toEqual([seeded[4], seeded[3]]);
    expect(Object.keys(first.body.executions[0]).sort()).toEqual(
      [
        'action_id',
        'callback_expires_at',
        'created_at',
        'dispatch_status',
        'error_message',
        'id',
        'latency_ms',
        'pipeline_status',
        'response_snippet',
        'status_code',
        'transition_id',
        'trigger',
        'updated_at',
        'vars',
      ].sort(),
    );
    const cursor = encodeURIComponent(first.body.next_cursor);
    const rest = await call('GET', `/v1/actions/${id}/executions?limit=200&cursor=${cursor}`);
    expect(rest.body.executions.map((e: { id: string }) => e.id)).toEqual([seeded[2], seeded[1], seeded[0]]);
    expect(rest.body.next_cursor).toBeNull();
    expect((await call('GET', `/v1/actions/${id}/executions`)).body.executions).toHaveLength(5);
    expect((await call('GET', `/v1/actions/${id}/executions?limit=201`)).status).toBe(400);
    const otherAction = (await create({})).body.id;
    expect((await call('GET', `/v1/actions/${otherAction}/executions?cursor=${cursor}`)).status).toBe(400);
  });

  it('deletes an action with its executions and their log lines (in bounded steps after)', async () => {
    const id = (await create({})).body.id;
    const records = [0, 1, 2].map((i) => execution(api.tenantId, id, clock.now() + i));
    for (const record of records) {
      await api.app.executions.putNew(record);
      await api.app.executions.appendLogs(record.id, ['one', 'two'], record.created_at);
    }
    expect(await api.app.executions.readLogs(records[0]?.id ?? '')).toHaveLength(2);
    expect((await call('DELETE', `/v1/actions/${id}`)).status).toBe(204);
    expect((await call('GET', `/v1/actions/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/v1/actions/${id}`)).status).toBe(404);
    await api.drainChanges();
    for (const record of records) {
      expect(await api.app.executions.get(record.id)).toBeUndefined();
      expect(await api.app.executions.readLogs(record.id)).toEqual([]);
    }
  });

  it('answers 404 for another tenant’s action on every action route', async () => {
    const id = (await create({})).body.id;
    const other = await api.createTenant('Nosy');
    for (const [method, path, body] of [
      ['GET', `/v1/actions/${id}`, undefined],
      ['PUT', `/v1/actions/${id}`, { name: 'mine' }],
      ['DELETE', `/v1/actions/${id}`, undefined],
      ['GET', `/v1/actions/${id}/executions`, undefined],
    ] as const) {
      const res = await api.request(method, path, { key: other.key, body });
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([404, 'NOT_FOUND']);
    }
    expect((await call('GET', `/v1/actions/${id}`)).body.name).toBe('Restart');
    expect((await api.request('GET', '/v1/actions', { key: other.key })).body).toEqual([]);
  });
});
