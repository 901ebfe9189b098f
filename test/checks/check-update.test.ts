import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck, record } from './check-fixtures.ts';

describe.each(runtimes)('check update ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const entityState = async (entityId: string) => {
    const board = (await call('GET', '/v1/status')).body;
    return board.entities.find((e: { id: string }) => e.id === entityId);
  };

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('changes only the supplied fields', async () => {
    const id = await newCheck(api, {
      entity_id: await newEntity(api),
      check_type: 'http',
      target_url: 'https://example.com',
      body_contains: 'ok',
    });
    const before = (await call('GET', `/v1/checks/${id}`)).body;
    const res = await call('PUT', `/v1/checks/${id}`, { timeout_ms: 2000, expected_status: 204 });
    expect(res.status, res.text).toBe(200);
    const { updated_at, ...rest } = res.body;
    expect(rest).toEqual({ ...before, updated_at: undefined, timeout_ms: 2000, expected_status: 204 });
    expect(updated_at >= before.updated_at).toBe(true);
    expect((await call('GET', `/v1/checks/${id}`)).body).toEqual(res.body);
  });

  it('keeps a stored header value when the PUT sends ******** and replaces the header set', async () => {
    const id = await newCheck(api, {
      entity_id: await newEntity(api),
      check_type: 'http',
      target_url: 'https://example.com',
      headers: { Authorization: 'Bearer s3cret', 'X-Trace': '1' },
    });
    const res = await call('PUT', `/v1/checks/${id}`, {
      headers: { Authorization: '********', 'X-New': 'visible-only-on-write' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.headers).toEqual({ Authorization: '********', 'X-New': '********' });
    const stored = await api.app.checks.get(api.tenantId, id);
    expect(stored?.headers).toEqual({ Authorization: 'Bearer s3cret', 'X-New': 'visible-only-on-write' });
    const unknown = await call('PUT', `/v1/checks/${id}`, { headers: { 'X-Missing': '********' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ path: 'headers.X-Missing', message: 'no stored value to keep' }]);
  });

  it('keeps next_run_at when only the interval changes', async () => {
    const id = await newCheck(api, quietTcpCheck(await newEntity(api)));
    const before = (await call('GET', `/v1/checks/${id}`)).body;
    const res = await call('PUT', `/v1/checks/${id}`, { interval_seconds: 3600 });
    expect(res.body.interval_seconds).toBe(3600);
    expect(res.body.next_run_at).toBe(before.next_run_at);
  });

  it("disabling clears next_run_at and takes the check out of its entity's state; enabling restores both", async () => {
    const entityId = await newEntity(api);
    const id = await newCheck(api, quietTcpCheck(entityId));
    await record(api, id, { success: true, checkedAtMs: Date.now() });
    expect(await entityState(entityId)).toMatchObject({ state: 'up', checks: [{ id, state: 'up' }] });

    const off = await call('PUT', `/v1/checks/${id}`, { enabled: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, next_run_at: null, state: 'up' });
    expect(await entityState(entityId)).toMatchObject({ state: 'unknown', checks: [] });
    const slug = (await entityState(entityId)).slug;
    expect((await call('GET', `/v1/blueprints/service/entities/${slug}`)).body.state).toBe('unknown');

    const on = await call('PUT', `/v1/checks/${id}`, { enabled: true });
    expect(on.body.enabled).toBe(true);
    expect(on.body.next_run_at).not.toBeNull();
    expect(await entityState(entityId)).toMatchObject({ state: 'up', checks: [{ id, state: 'up' }] });
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a change of check_type', { check_type: 'http' }, 'check_type'],
    ['a change of entity_id', { entity_id: 'ent_01J00000000000000000000000' }, 'entity_id'],
    ['a config invalid for the type', { config: { host: 'db' } }, 'config.port'],
    ['a target_url on a tcp check', { target_url: 'https://example.com' }, 'target_url'],
    ['a timeout below 100 ms', { timeout_ms: 5 }, 'timeout_ms'],
    ['push mode on a tcp check', { execution_mode: 'push' }, 'execution_mode'],
  ])('rejects %s with 400 VALIDATION_ERROR and changes nothing', async (_label, body, path) => {
    const id = await newCheck(api, quietTcpCheck(await newEntity(api)));
    const before = (await call('GET', `/v1/checks/${id}`)).body;
    const res = await call('PUT', `/v1/checks/${id}`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await call('GET', `/v1/checks/${id}`)).body).toEqual(before);
  });
});
