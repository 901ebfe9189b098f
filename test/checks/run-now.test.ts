import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_PER_CHECK } from '../../lib/checks/services/run-now.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { startStatusServer } from '../support/status-server.ts';
import { newEntity } from './check-fixtures.ts';

/** POST /v1/checks/{id}/run: one probe now, stored as a normal result with `manual: true`. */
describe.each(runtimes)('running a check now ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let server: Awaited<ReturnType<typeof startStatusServer>>;
  let entityId: string;

  beforeAll(async () => {
    server = await startStatusServer(200);
    api = await start({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    entityId = await newEntity(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await server?.close();
  });

  const call = async (method: string, path: string, options: { body?: unknown; key?: string } = {}) =>
    api.request(method, path, { key: options.key ?? api.adminKey, ...options });
  const newHttpCheck = async (extra: Record<string, unknown> = {}) => {
    const created = await call('POST', '/v1/checks', {
      body: {
        entity_id: entityId,
        check_type: 'http',
        target_url: server.url,
        interval_seconds: 3600,
        failure_threshold: 1,
        ...extra,
      },
    });
    expect(created.status, created.text).toBe(201);
    return String(created.body.id);
  };

  it('answers the stored result, marked manual, which moves the state like any other', async () => {
    const checkId = await newHttpCheck();

    const run = await call('POST', `/v1/checks/${checkId}/run`);

    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({
      status: 'completed',
      result: { manual: true, success: true, status_code: 200 },
    });
    const listed = (await call('GET', `/v1/checks/${checkId}/results`)).body.results;
    expect(listed).toEqual([run.body.result]);
    expect((await call('GET', `/v1/checks/${checkId}`)).body.state).toBe('up');
    expect(server.hits()).toBe(1);
    const audit = (await call('GET', '/v1/audit?limit=200')).body.entries as {
      action: string;
      target: unknown;
    }[];
    expect(audit.find((e) => e.action === 'check.run')).toMatchObject({
      target: { type: 'check', id: checkId },
    });
  });

  it('answers 429 with Retry-After past the per-check limit', async () => {
    const checkId = await newHttpCheck();
    for (let i = 0; i < RUN_PER_CHECK.burst; i += 1) {
      expect((await call('POST', `/v1/checks/${checkId}/run`)).status).toBe(200);
    }

    const limited = await call('POST', `/v1/checks/${checkId}/run`);

    expect(limited.status, limited.text).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("answers 404 for another tenant's check and 403 for a read-only key", async () => {
    const checkId = await newHttpCheck();
    const other = await api.createTenant('Elsewhere');
    const readOnly = (await call('POST', '/v1/auth/keys', { body: { label: 'ro', is_read_only: true } })).body
      .key;

    const foreign = await call('POST', `/v1/checks/${checkId}/run`, { key: other.key });
    const denied = await call('POST', `/v1/checks/${checkId}/run`, { key: readOnly });

    expect(foreign.status, foreign.text).toBe(404);
    expect(denied.status, denied.text).toBe(403);
    expect((await call('GET', `/v1/checks/${checkId}/results`)).body.results).toEqual([]);
  });

  it('refuses a push check and a disabled one (409)', async () => {
    const push = await call('POST', '/v1/checks', {
      body: { entity_id: entityId, check_type: 'push', interval_seconds: 3600 },
    });
    const disabled = await newHttpCheck({ enabled: false });

    expect((await call('POST', `/v1/checks/${push.body.id}/run`)).status).toBe(409);
    expect((await call('POST', `/v1/checks/${disabled}/run`)).status).toBe(409);
  });
});
