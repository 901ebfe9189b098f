import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCheck as createCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

describe.each(runtimes)('pushed results and heartbeats ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  const newCheck = (body: Record<string, unknown>) => createCheck(api, { entity_id: entityId, ...body });

  beforeAll(async () => {
    api = await start();
    await call('POST', '/v1/blueprints', { slug: 'job', name: 'Job' });
    entityId = (await call('POST', '/v1/blueprints/job/entities', { slug: 'nightly', name: 'Nightly' })).body
      .id;
  });
  afterAll(async () => {
    await api.close();
  });

  it('stores a pushed result and answers 201 with it', async () => {
    const id = await newCheck({ check_type: 'push' });
    const checkedAt = new Date(Date.now() - 30_000).toISOString();
    const res = await call('POST', `/v1/checks/${id}/results`, {
      success: false,
      latency_ms: 1234,
      error_message: 'backup failed: disk full',
      checked_at: checkedAt,
      status_code: 2,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^res_/),
      check_id: id,
      status_code: 2,
      latency_ms: 1234,
      success: false,
      error_message: 'backup failed: disk full',
      checked_at: checkedAt,
      outcome: 'down',
    });
    const results = await call('GET', `/v1/checks/${id}/results`);
    expect(results.body.results[0]).toEqual(res.body);
  });

  it('defaults checked_at to now, error_message to empty and status_code to 0', async () => {
    const id = await newCheck({ check_type: 'push' });
    const before = Date.now();
    const res = await call('POST', `/v1/checks/${id}/results`, { success: true, latency_ms: 5 });
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.checked_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body).toMatchObject({ error_message: '', status_code: 0, success: true });
  });

  it.each([
    ['more than 1 minute in the future', () => new Date(Date.now() + 120_000).toISOString()],
    ['older than the retention window', () => new Date(Date.now() - 31 * 86_400_000).toISOString()],
    ['not a timestamp', () => 'yesterday'],
  ])('rejects checked_at %s with 400 naming checked_at', async (_label, value) => {
    const id = await newCheck({ check_type: 'push' });
    const res = await call('POST', `/v1/checks/${id}/results`, {
      success: true,
      latency_ms: 1,
      checked_at: value(),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('checked_at');
  });

  it('rejects a result without success or latency_ms, or with unknown fields', async () => {
    const id = await newCheck({ check_type: 'push' });
    for (const body of [
      { latency_ms: 1 },
      { success: true },
      { success: true, latency_ms: 1, sucess: true },
    ]) {
      const res = await call('POST', `/v1/checks/${id}/results`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('answers 409 CONFLICT to results and heartbeats for a pull-mode check', async () => {
    const id = await newCheck({
      check_type: 'http',
      target_url: 'http://127.0.0.1:9/health',
      enabled: false,
    });
    const result = await call('POST', `/v1/checks/${id}/results`, { success: true, latency_ms: 1 });
    expect(result.status).toBe(409);
    expect(result.body.code).toBe('CONFLICT');
    const beat = await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    expect(beat.status).toBe(409);
    expect(beat.body.code).toBe('CONFLICT');
  });

  it('gives a read-only key 403 READ_ONLY on both endpoints', async () => {
    const id = await newCheck({ check_type: 'push' });
    const ro = (await call('POST', '/v1/auth/keys', { label: 'agent', is_read_only: true })).body.key;
    expect(
      (await call('POST', `/v1/checks/${id}/results`, { success: true, latency_ms: 1 }, ro)).body.code,
    ).toBe('READ_ONLY');
    const beat = await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: ro });
    expect(beat.status).toBe(403);
    expect(beat.body.code).toBe('READ_ONLY');
  });

  it.each([
    [
      'a GitHub-style JSON webhook',
      JSON.stringify({
        action: 'completed',
        workflow_run: { id: 1, conclusion: 'success' },
        sender: { login: 'x' },
      }),
      {
        'content-type': 'application/json',
        'x-github-event': 'workflow_run',
        'x-hub-signature-256': 'sha256=00',
      },
    ],
    ['a form post', 'status=ok&host=db1', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['an empty body', '', {}],
    ['plain text', 'backup done', { 'content-type': 'text/plain' }],
    ['binary', Buffer.from([0, 255, 1, 254, 10, 13]), { 'content-type': 'application/octet-stream' }],
    ['broken JSON', '{"unterminated', { 'content-type': 'application/json' }],
  ])('records a successful heartbeat for %s', async (_label, rawBody, headers) => {
    const id = await newCheck({ check_type: 'push' });
    const res = await api.request('POST', `/v1/checks/${id}/heartbeat`, {
      key: api.adminKey,
      rawBody,
      headers,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ check_id: id, success: true, latency_ms: 0, error_message: '' });
  });

  it('accepts a heartbeat body up to the 1 MiB limit and refuses a larger one', async () => {
    const id = await newCheck({ check_type: 'push' });
    const fits = await api.request('POST', `/v1/checks/${id}/heartbeat`, {
      key: api.adminKey,
      rawBody: Buffer.alloc(1024 * 1024 - 1, 120),
    });
    expect(fits.status).toBe(201);
    const tooLarge = await api.request('POST', `/v1/checks/${id}/heartbeat`, {
      key: api.adminKey,
      rawBody: Buffer.alloc(1024 * 1024 + 1, 120),
    });
    expect(tooLarge.status).toBe(413);
  });

  it('moves a threshold-1 push check down on a failed result and up on the next heartbeat', async () => {
    const id = await newCheck({ check_type: 'push', failure_threshold: 1 });
    await call('POST', `/v1/checks/${id}/results`, { success: true, latency_ms: 3 });
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
    await call('POST', `/v1/checks/${id}/results`, {
      success: false,
      latency_ms: 3,
      error_message: 'exit 1',
    });
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('down');
    await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
  });

  it('answers 409 CONFLICT to results and heartbeats for a disabled check, and accepts them once enabled', async () => {
    const id = await newCheck({ check_type: 'push', enabled: false });
    const pushed = await call('POST', `/v1/checks/${id}/results`, { success: true, latency_ms: 1 });
    expect(pushed.status, pushed.text).toBe(409);
    expect(pushed.body).toMatchObject({ code: 'CONFLICT', error: expect.stringMatching(/disabled/) });
    expect((await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey })).status).toBe(409);
    expect((await call('PUT', `/v1/checks/${id}`, { enabled: true })).status).toBe(200);
    expect((await call('POST', `/v1/checks/${id}/results`, { success: true, latency_ms: 1 })).status).toBe(
      201,
    );
  });

  it("answers 404 once the check's entity is deleted, before its purge has run", async () => {
    const slug = `gone-${Date.now()}`;
    const entity = await call('POST', '/v1/blueprints/job/entities', { slug, name: 'Gone' });
    const res = await call('POST', '/v1/checks', { entity_id: entity.body.id, check_type: 'push' });
    expect(res.status, res.text).toBe(201);
    // Up already: the next success changes no state, so only the entity check can refuse it.
    expect(
      (await call('POST', `/v1/checks/${res.body.id}/results`, { success: true, latency_ms: 1 })).status,
    ).toBe(201);
    expect((await call('DELETE', `/v1/blueprints/job/entities/${slug}`)).status).toBe(204);
    const pushed = await call('POST', `/v1/checks/${res.body.id}/results`, { success: true, latency_ms: 1 });
    expect(pushed.status, pushed.text).toBe(404);
  });

  it('answers 404 for an unknown check', async () => {
    const res = await call('POST', '/v1/checks/chk_01ARZ3NDEKTSV4RRFFQ69G5FAV/results', {
      success: true,
      latency_ms: 1,
    });
    expect(res.status).toBe(404);
  });
});
