import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { storedKeys } from '../support/stored-keys.ts';
import { newCheck, newEntity } from './check-fixtures.ts';

/** Check names: given on create or update, else derived from the type and target on every read. */
describe.each(runtimes)('check names ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const http = (extra: Record<string, unknown> = {}) => ({
    entity_id: entityId,
    check_type: 'http',
    target_url: 'https://ops:hunter2@api.example.com/health?token=abc123',
    interval_seconds: 86_400,
    ...extra,
  });

  beforeAll(async () => {
    api = await start();
    entityId = await newEntity(api);
  });
  afterAll(async () => {
    await api.close();
  });

  it('derives a name from the type and target when none is given, without credentials or query', async () => {
    const res = await call('POST', '/v1/checks', http());
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'HTTP GET api.example.com/health', name_is_default: true });
    const read = await call('GET', `/v1/checks/${res.body.id}`);
    expect(read.body).toMatchObject({ name: 'HTTP GET api.example.com/health', name_is_default: true });
  });

  it('derives a name for every type', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ check_type: 'http', target_url: 'https://example.com/', method: 'HEAD' }, 'HTTP HEAD example.com'],
      [{ check_type: 'tcp', config: { host: 'db.internal', port: 5432 } }, 'TCP db.internal:5432'],
      [{ check_type: 'tls', config: { host: 'example.com' } }, 'TLS example.com'],
      [{ check_type: 'tls', config: { host: 'example.com', port: 8443 } }, 'TLS example.com:8443'],
      [{ check_type: 'dns', config: { hostname: 'example.com', record_type: 'MX' } }, 'DNS MX example.com'],
    ];
    for (const [body, name] of cases) {
      const res = await call('POST', '/v1/checks', {
        entity_id: entityId,
        interval_seconds: 86_400,
        ...body,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.name).toBe(name);
    }
    const push = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 300,
    });
    expect(push.body.name).toMatch(/^Push check for svc-\d+, every 5 min$/);
  });

  it('keeps a given name, trimmed, on create and in the list', async () => {
    const id = await newCheck(api, http({ name: '  Checkout API  ' }));
    const read = await call('GET', `/v1/checks/${id}`);
    expect(read.body).toMatchObject({ name: 'Checkout API', name_is_default: false });
    const list = await call('GET', `/v1/checks?entity_id=${entityId}`);
    expect(list.body.find((c: { id: string }) => c.id === id)?.name).toBe('Checkout API');
  });

  it('renames on update; name null goes back to the derived name, which follows the target', async () => {
    const id = await newCheck(api, http());
    const renamed = await call('PUT', `/v1/checks/${id}`, { name: 'Payments health' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Payments health', name_is_default: false });
    // Another field's update keeps the name.
    const moved = await call('PUT', `/v1/checks/${id}`, { target_url: 'https://pay.example.com/ready' });
    expect(moved.body.name).toBe('Payments health');
    const reset = await call('PUT', `/v1/checks/${id}`, { name: null });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ name: 'HTTP GET pay.example.com/ready', name_is_default: true });
    await call('PUT', `/v1/checks/${id}`, { target_url: 'https://pay.example.com/live' });
    expect((await call('GET', `/v1/checks/${id}`)).body.name).toBe('HTTP GET pay.example.com/live');
  });

  it('refuses a blank or too long name with 400 and changes nothing', async () => {
    const id = await newCheck(api, http({ name: 'Kept' }));
    for (const name of ['', '   ', 'x'.repeat(201), 42]) {
      const create = await call('POST', '/v1/checks', http({ name }));
      expect(create.status, create.text).toBe(400);
      expect(create.body.code).toBe('VALIDATION_ERROR');
      expect(create.body.details[0].path).toBe('name');
      const update = await call('PUT', `/v1/checks/${id}`, { name });
      expect(update.status, update.text).toBe(400);
    }
    expect((await call('GET', `/v1/checks/${id}`)).body.name).toBe('Kept');
  });

  it('derives the name of a check stored before names existed', async () => {
    const id = await newCheck(api, http({ name: 'Old' }));
    // A definition written before names has no `name` attribute at all.
    await api.table.transact([{ type: 'update', key: storedKeys.check(api.tenantId, id), remove: ['name'] }]);
    const read = await call('GET', `/v1/checks/${id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ name: 'HTTP GET api.example.com/health', name_is_default: true });
  });
});
