import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/** The fields every check returns. */
const COMMON_KEYS = [
  'blueprint_slug',
  'check_type',
  'consecutive_failures',
  'created_at',
  'enabled',
  'entity_id',
  'entity_slug',
  'entity_name',
  'execution_mode',
  'failure_threshold',
  'id',
  'interval_seconds',
  'last_result_at',
  // Where it probes from (["default"] unless it names others) and its effective quorum.
  'locations',
  'name',
  'name_is_default',
  'next_run_at',
  'quorum',
  'slo_target',
  'state',
  'success_threshold',
  'updated_at',
];
/** The fields of each type on top: its request and expectations, or its config and probe timeout. */
const TYPE_KEYS: Record<string, string[]> = {
  http: [
    'assertions',
    'body',
    'body_contains',
    'degraded_latency_ms',
    'expected_status',
    'expected_statuses',
    'headers',
    'method',
    'target_url',
    'timeout_ms',
    // Per-check TLS trust (null when none): http, tls and grpc checks.
    'tls',
  ],
  tcp: ['config', 'degraded_latency_ms', 'timeout_ms'],
  tls: ['config', 'degraded_latency_ms', 'timeout_ms', 'tls'],
  dns: ['config', 'degraded_latency_ms', 'timeout_ms'],
  push: ['config'],
};
const recordKeys = (checkType: string) => [...COMMON_KEYS, ...(TYPE_KEYS[checkType] ?? [])].sort();

describe.each(runtimes)('check CRUD ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  beforeAll(async () => {
    api = await start();
    entityId = await newEntity(api);
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates an http check with the documented defaults and returns the full record', async () => {
    const res = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'http',
      target_url: 'https://example.com/health',
    });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(recordKeys('http'));
    expect(res.body.id).toMatch(/^chk_[0-9A-Z]{26}$/);
    expect(res.body).toMatchObject({
      entity_id: entityId,
      check_type: 'http',
      execution_mode: 'pull',
      target_url: 'https://example.com/health',
      method: 'GET',
      headers: {},
      body: null,
      expected_status: 200,
      body_contains: '',
      interval_seconds: 60,
      timeout_ms: 5000,
      failure_threshold: 3,
      success_threshold: 1,
      enabled: true,
      state: 'unknown',
      consecutive_failures: 0,
      last_result_at: null,
    });
    expect(res.body.next_run_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body.created_at).toBe(res.body.updated_at);
    const read = await call('GET', `/v1/checks/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const list = await call('GET', '/v1/checks');
    expect(list.body.map((c: { id: string }) => c.id)).toContain(res.body.id);
  });

  it.each([
    ['tcp', { config: { host: 'db.internal', port: 5432 } }],
    ['tls', { config: { host: 'example.com' } }],
    [
      'tls',
      {
        config: { host: 'example.com', port: 8443, servername: 'www.example.com', expiry_threshold_days: 7 },
      },
    ],
    ['dns', { config: { hostname: 'example.com', record_type: 'A' } }],
    [
      'dns',
      {
        config: {
          hostname: 'example.com',
          record_type: 'TXT',
          expected_value: 'v=spf1',
          nameserver: '1.1.1.1',
        },
      },
    ],
    ['push', {}],
    ['push', { config: { grace_seconds: 300 }, failure_threshold: 1 }],
  ])('creates a %s check with its config', async (checkType, extra) => {
    const res = await call('POST', '/v1/checks', { entity_id: entityId, check_type: checkType, ...extra });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ check_type: checkType, ...extra });
    expect(Object.keys(res.body).sort()).toEqual(recordKeys(checkType));
    expect(res.body.execution_mode).toBe(checkType === 'push' ? 'push' : 'pull');
    // A push check is only due once it has heard from its agent.
    if (checkType === 'push') expect(res.body.next_run_at).toBeNull();
    else expect(res.body.next_run_at).not.toBeNull();
  });

  it.each([
    ['an http check without target_url', { check_type: 'http' }, 'target_url'],
    ['a relative target_url', { check_type: 'http', target_url: '/health' }, 'target_url'],
    ['a non-http target_url', { check_type: 'http', target_url: 'ftp://example.com' }, 'target_url'],
    [
      'an unknown http config key',
      { check_type: 'http', target_url: 'https://a.example', config: { x: 1 } },
      'config.x',
    ],
    ['a tcp check without host', { check_type: 'tcp', config: { port: 22 } }, 'config.host'],
    ['a tcp check without port', { check_type: 'tcp', config: { host: 'db' } }, 'config.port'],
    ['a tcp port out of range', { check_type: 'tcp', config: { host: 'db', port: 70000 } }, 'config.port'],
    [
      'a tcp check with a target_url',
      { check_type: 'tcp', target_url: 'https://a.example', config: { host: 'db', port: 1 } },
      'target_url',
    ],
    [
      'a tcp check with a method',
      { check_type: 'tcp', method: 'POST', config: { host: 'db', port: 1 } },
      'method',
    ],
    ['a tls check without host', { check_type: 'tls', config: { port: 443 } }, 'config.host'],
    [
      'an unknown tls config key',
      { check_type: 'tls', config: { host: 'a.example', sni: 'b' } },
      'config.sni',
    ],
    [
      'a dns check without record_type',
      { check_type: 'dns', config: { hostname: 'a.example' } },
      'config.record_type',
    ],
    [
      'an unsupported dns record_type',
      { check_type: 'dns', config: { hostname: 'a.example', record_type: 'PTR' } },
      'config.record_type',
    ],
    ['a dns check without hostname', { check_type: 'dns', config: { record_type: 'A' } }, 'config.hostname'],
    ['a push check with a target_url', { check_type: 'push', target_url: 'https://a.example' }, 'target_url'],
    ['an unknown push config key', { check_type: 'push', config: { host: 'a' } }, 'config.host'],
    ['a push check with a timeout', { check_type: 'push', timeout_ms: 1000 }, 'timeout_ms'],
    ['a push check with an expected status', { check_type: 'push', expected_status: 204 }, 'expected_status'],
    [
      'a tcp check with an expected status',
      { check_type: 'tcp', expected_status: 204, config: { host: 'db', port: 1 } },
      'expected_status',
    ],
    [
      'an http check in push mode',
      { check_type: 'http', target_url: 'https://a.example', execution_mode: 'push' },
      'execution_mode',
    ],
    ['a push check in pull mode', { check_type: 'push', execution_mode: 'pull' }, 'execution_mode'],
    ['an unknown check_type', { check_type: 'smtp' }, 'check_type'],
    ['an unknown body field', { check_type: 'push', colour: 'red' }, 'colour'],
    ['interval_seconds 0', { check_type: 'push', interval_seconds: 0 }, 'interval_seconds'],
    ['a string threshold', { check_type: 'push', failure_threshold: '3' }, 'failure_threshold'],
    ['success_threshold 0', { check_type: 'push', success_threshold: 0 }, 'success_threshold'],
    ['success_threshold 11', { check_type: 'push', success_threshold: 11 }, 'success_threshold'],
  ])('rejects %s with 400 VALIDATION_ERROR naming the field', async (_label, body, path) => {
    const entity = await newEntity(api);
    const res = await call('POST', '/v1/checks', { entity_id: entity, ...body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await call('GET', `/v1/checks?entity_id=${entity}`)).body).toEqual([]);
  });

  it('answers 404 for a check on an entity that does not exist', async () => {
    const res = await call('POST', '/v1/checks', quietTcpCheck('ent_01J00000000000000000000000'));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('filters the list by ?entity_id=, and an unknown entity lists nothing', async () => {
    const [a, b] = [await newEntity(api), await newEntity(api)];
    const a1 = await newCheck(api, quietTcpCheck(a));
    const a2 = await newCheck(api, quietTcpCheck(a));
    const b1 = await newCheck(api, quietTcpCheck(b));
    const ofA = await call('GET', `/v1/checks?entity_id=${a}`);
    expect(ofA.status).toBe(200);
    expect(ofA.body.map((c: { id: string }) => c.id).sort()).toEqual([a1, a2].sort());
    expect((await call('GET', `/v1/checks?entity_id=${b}`)).body.map((c: { id: string }) => c.id)).toEqual([
      b1,
    ]);
    expect((await call('GET', '/v1/checks?entity_id=ent_nope')).body).toEqual([]);
  });

  it('deletes a check with 204; it then answers 404 and leaves the list', async () => {
    const id = await newCheck(api, quietTcpCheck(entityId));
    const del = await call('DELETE', `/v1/checks/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const path of [`/v1/checks/${id}`, `/v1/checks/${id}/results`, `/v1/checks/${id}/transitions`]) {
      expect((await call('GET', path)).status).toBe(404);
    }
    expect((await call('DELETE', `/v1/checks/${id}`)).status).toBe(404);
    expect((await call('PUT', `/v1/checks/${id}`, { timeout_ms: 1000 })).status).toBe(404);
    expect((await call('GET', '/v1/checks')).body.map((c: { id: string }) => c.id)).not.toContain(id);
  });

  it('makes the checks of a deleted entity 404 at once, before the purge has run', async () => {
    const entity = await newEntity(api, { blueprint: 'doomed' });
    const slug = (await call('GET', '/v1/blueprints/doomed/entities')).body[0].slug;
    const id = await newCheck(api, quietTcpCheck(entity));
    expect((await call('DELETE', `/v1/blueprints/doomed/entities/${slug}`)).status).toBe(204);
    expect((await call('GET', `/v1/checks/${id}`)).status).toBe(404);
    expect((await call('GET', `/v1/checks/${id}/results`)).status).toBe(404);
    expect((await call('GET', `/v1/checks/${id}/sparkline`)).status).toBe(404);
    expect((await call('GET', '/v1/checks')).body.map((c: { id: string }) => c.id)).not.toContain(id);
    expect((await call('GET', `/v1/checks?entity_id=${entity}`)).body).toEqual([]);
    await api.drainChanges();
    expect((await call('GET', `/v1/checks/${id}`)).status).toBe(404);
  });

  it("answers 404 for another tenant's check and never lists it", async () => {
    const id = await newCheck(api, quietTcpCheck(entityId));
    const other = await api.createTenant('Initech');
    expect((await call('GET', `/v1/checks/${id}`, undefined, other.key)).status).toBe(404);
    expect((await call('GET', `/v1/checks/${id}/results`, undefined, other.key)).status).toBe(404);
    expect((await call('PUT', `/v1/checks/${id}`, { timeout_ms: 100 }, other.key)).status).toBe(404);
    expect((await call('DELETE', `/v1/checks/${id}`, undefined, other.key)).status).toBe(404);
    expect((await call('GET', '/v1/checks', undefined, other.key)).body).toEqual([]);
    expect((await call('POST', '/v1/checks', quietTcpCheck(entityId), other.key)).status).toBe(404);
  });

  it('lets a read-only key read checks (headers redacted) but answers 403 READ_ONLY to every write', async () => {
    const id = await newCheck(api, {
      entity_id: entityId,
      check_type: 'http',
      target_url: 'https://example.com',
      headers: { Authorization: 'Bearer secret' },
    });
    const created = await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true });
    expect(created.status).toBe(201);
    const viewer: string = created.body.key;
    const read = await call('GET', `/v1/checks/${id}`, undefined, viewer);
    expect(read.status).toBe(200);
    expect(read.body.headers).toEqual({ Authorization: '********' });
    expect(read.text).not.toContain('secret');
    expect((await call('GET', '/v1/checks', undefined, viewer)).status).toBe(200);
    const writes = [
      await call('POST', '/v1/checks', quietTcpCheck(entityId), viewer),
      await call('PUT', `/v1/checks/${id}`, { timeout_ms: 100 }, viewer),
      await call('DELETE', `/v1/checks/${id}`, undefined, viewer),
    ];
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('READ_ONLY');
    }
    expect((await call('GET', `/v1/checks/${id}`)).body.timeout_ms).toBe(5000);
  });
});
