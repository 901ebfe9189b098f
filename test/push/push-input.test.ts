import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** `ms` as RFC 3339 local time at +01:00, e.g. 2026-11-22T08:43:00+01:00 (whole seconds). */
function atPlusOne(ms: number): string {
  return new Date(ms + 3_600_000).toISOString().replace('.000Z', '+01:00');
}

describe.each(runtimes)('push result input ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let checkId: string;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });

  beforeAll(async () => {
    api = await start();
    await call('POST', '/v1/blueprints', { slug: 'job', name: 'Job' });
    const entity = await call('POST', '/v1/blueprints/job/entities', { slug: 'nightly', name: 'Nightly' });
    const check = await call('POST', '/v1/checks', { entity_id: entity.body.id, check_type: 'push' });
    checkId = check.body.id;
  });
  afterAll(async () => {
    await api.close();
  });

  it('accepts checked_at with an offset and stores it as UTC', async () => {
    const ms = Math.floor((Date.now() - 60_000) / 1000) * 1000;
    const res = await call('POST', `/v1/checks/${checkId}/results`, {
      success: true,
      latency_ms: 12,
      checked_at: atPlusOne(ms),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.checked_at).toBe(new Date(ms).toISOString());
    const results = await call('GET', `/v1/checks/${checkId}/results`);
    expect(results.body.results[0].checked_at).toBe(new Date(ms).toISOString());
  });

  it('answers one detail for latency_ms 1e300', async () => {
    const res = await call('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 1e300 });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'latency_ms', message: 'Enter 86400000 or less.' }]);
  });
});
