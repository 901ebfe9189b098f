import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';
import { newCheck, newEntity, quietPushCheck, quietTcpCheck, record } from './check-fixtures.ts';

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

  it('keeps a push deadline when the interval changes but the grace does not; re-arms it when the grace follows the interval', async () => {
    const fixed = await newCheck(
      api,
      quietPushCheck(await newEntity(api), { config: { grace_seconds: 7200 } }),
    );
    await record(api, fixed, { success: true, checkedAtMs: Date.now() - 1000 });
    const before = (await call('GET', `/v1/checks/${fixed}`)).body;
    expect(before.next_run_at).not.toBeNull();
    const res = await call('PUT', `/v1/checks/${fixed}`, { interval_seconds: 7200 });
    expect(res.body.interval_seconds).toBe(7200);
    expect(res.body.next_run_at).toBe(before.next_run_at);
    expect((await call('GET', `/v1/checks/${fixed}`)).body.next_run_at).toBe(before.next_run_at);

    // The default grace is twice the interval: the deadline moves with it, from the last report.
    const following = await newCheck(api, quietPushCheck(await newEntity(api)));
    await record(api, following, { success: true, checkedAtMs: Date.now() - 1000 });
    const last = (await call('GET', `/v1/checks/${following}`)).body.last_result_at as string;
    const moved = await call('PUT', `/v1/checks/${following}`, { interval_seconds: 7200 });
    expect(moved.body.next_run_at).toBe(new Date(Date.parse(last) + 2 * 7200 * 1000).toISOString());
  });

  it("moves a pull check to a cell of its new interval, keeping its state, and runs it on that cell's next slot", async () => {
    const id = await newCheck(api, quietTcpCheck(await newEntity(api), { failure_threshold: 3 }));
    await runCellSlot(api, { slotMs: Date.now() - 2000, answers: { [id]: false } });
    const before = (await call('GET', `/v1/checks/${id}`)).body;
    expect(before).toMatchObject({ state: 'unknown', consecutive_failures: 1 });
    const res = await call('PUT', `/v1/checks/${id}`, { interval_seconds: 3600 });
    expect(res.status, res.text).toBe(200);
    const shown = (await call('GET', `/v1/checks/${id}`)).body;
    expect(shown).toMatchObject({ interval_seconds: 3600, state: 'unknown', consecutive_failures: 1 });
    const nextMs = Date.parse(shown.next_run_at);
    expect(nextMs).toBeGreaterThan(Date.now() - 60_000);
    expect(nextMs).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(res.body.next_run_at).toBe(shown.next_run_at);
  });

  it("disabling clears next_run_at and takes the check out of its entity's state; enabling restores both", async () => {
    const entityId = await newEntity(api);
    const id = await newCheck(api, quietTcpCheck(entityId));
    await runCellSlot(api, { slotMs: Date.now() - 1000, answers: { [id]: true } });
    expect(await entityState(entityId)).toMatchObject({ state: 'up', checks: [{ id, state: 'up' }] });

    const off = await call('PUT', `/v1/checks/${id}`, { enabled: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, next_run_at: null, state: 'up' });
    expect((await call('GET', `/v1/checks/${id}`)).body).toEqual(off.body);
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
