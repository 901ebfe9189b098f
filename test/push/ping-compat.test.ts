import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PING_BODY_LIMIT_BYTES } from '../../lib/push/log/ping-items.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/** The npm Healthchecks client (no types of its own): its ping client refuses a code that is no UUID. */
const { HealthChecksPingClient } = createRequire(import.meta.url)('healthchecks-io-client') as {
  HealthChecksPingClient: new (options: { uuid: string; baseUrl?: string }) => unknown;
};

/**
 * Healthchecks' Pinging API, form by form (docs/heartbeats.md's compatibility table names these
 * tests): each answer (status, text), the ping's log item, the result it recorded and the state.
 */
describe.each(runtimes)('Pinging API compatibility ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const kit = pingKit(() => api);

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('success GET: 200 OK, a success result, and no second copy in the ping log (a plain success)', async () => {
    const { checkId, token } = await kit.pushCheck();
    const res = await api.request('GET', `/ping/${token}`, { headers: { 'user-agent': 'curl/8.5.0' } });

    kit.expectText(res, 200, 'OK');
    expect(res.headers['ping-body-limit']).toBe(String(PING_BODY_LIMIT_BYTES));
    expect(await kit.pings(checkId)).toEqual([]);
    const results = await kit.results(checkId);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ success: true, latency_ms: 0, error_message: '' });
    expect(results[0]).not.toHaveProperty('pinged');
    expect((await kit.state(checkId)).state).toBe('up');
  });

  it('success POST: 200 OK, the body kept with the ping', async () => {
    const { checkId, token } = await kit.pushCheck();
    const res = await api.request('POST', `/ping/${token}`, {
      rawBody: 'backup done: 42 files ✓',
      headers: { 'content-type': 'text/plain' },
    });

    kit.expectText(res, 200, 'OK');
    const [ping] = await kit.pings(checkId);
    expect(ping).toMatchObject({ kind: 'success', method: 'POST', body: 'backup done: 42 files ✓' });
    expect(ping?.body_truncated).toBeUndefined();
    expect((await kit.results(checkId))[0]).toMatchObject({ success: true });
  });

  it('success HEAD: 200 with no body, a success result (a plain success: not in the ping log)', async () => {
    const { checkId, token } = await kit.pushCheck();
    const res = await api.request('HEAD', `/ping/${token}`);

    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await kit.pings(checkId)).toEqual([]);
    expect(await kit.results(checkId)).toMatchObject([{ success: true }]);
    expect((await kit.state(checkId)).state).toBe('up');
  });

  it('/start: 200 OK, no result, the run started on the state', async () => {
    const { checkId, token } = await kit.pushCheck();
    const res = await api.request('GET', `/ping/${token}/start`);

    kit.expectText(res, 200, 'OK');
    const [ping] = await kit.pings(checkId);
    expect(ping).toMatchObject({ kind: 'start', method: 'GET' });
    expect(await kit.results(checkId)).toEqual([]);
    expect((await kit.state(checkId)).run_started_at).toBe(ping?.at);
  });

  it('/fail: 200 OK, a failure result, the body kept', async () => {
    const { checkId, token } = await kit.pushCheck();
    const res = await api.request('POST', `/ping/${token}/fail`, { rawBody: 'rsync: connection refused' });

    kit.expectText(res, 200, 'OK');
    expect((await kit.pings(checkId))[0]).toMatchObject({ kind: 'fail', body: 'rsync: connection refused' });
    expect((await kit.results(checkId))[0]).toMatchObject({
      success: false,
      error_message: 'failure reported to the ping URL',
    });
    expect((await kit.state(checkId)).state).toBe('down');
  });

  it('/log: 200 OK, only a log entry (no result, no state change)', async () => {
    const { checkId, token } = await kit.pushCheck();
    const before = await kit.state(checkId);
    const res = await api.request('POST', `/ping/${token}/log`, { rawBody: 'step 2 of 5' });

    kit.expectText(res, 200, 'OK');
    expect((await kit.pings(checkId))[0]).toMatchObject({ kind: 'log', body: 'step 2 of 5' });
    expect(await kit.results(checkId)).toEqual([]);
    expect(await kit.state(checkId)).toEqual(before);
  });

  it('/0: exit status 0 is a success', async () => {
    const { checkId, token } = await kit.pushCheck();
    const res = await api.request('POST', `/ping/${token}/0`, { rawBody: 'all good' });

    kit.expectText(res, 200, 'OK');
    expect((await kit.pings(checkId))[0]).toMatchObject({ kind: 'exit', exit_status: 0, body: 'all good' });
    expect((await kit.results(checkId))[0]).toMatchObject({ success: true, error_message: '' });
    expect((await kit.state(checkId)).state).toBe('up');
  });

  it('/1 to /255: a failure "exit status N"', async () => {
    const { checkId, token } = await kit.pushCheck();
    kit.expectText(await api.request('GET', `/ping/${token}/1`), 200, 'OK');
    kit.expectText(await api.request('GET', `/ping/${token}/255`), 200, 'OK');
    // Django's int converter reads leading zeros.
    kit.expectText(await api.request('GET', `/ping/${token}/00000000007`), 200, 'OK');

    const pings = await kit.pings(checkId);
    expect(pings.map((p) => [p.kind, p.exit_status])).toEqual([
      ['exit', 7],
      ['exit', 255],
      ['exit', 1],
    ]);
    const results = await kit.results(checkId);
    expect(results.map((r) => [r.success, r.error_message])).toEqual([
      [false, 'exit status 7'],
      [false, 'exit status 255'],
      [false, 'exit status 1'],
    ]);
    expect((await kit.state(checkId)).state).toBe('down');
  });

  it('/256 and above: 400 "invalid url format", nothing recorded', async () => {
    const { checkId, token } = await kit.pushCheck();
    kit.expectText(await api.request('GET', `/ping/${token}/256`), 400, 'invalid url format');
    kit.expectText(await api.request('POST', `/ping/${token}/99999999999`), 400, 'invalid url format');
    expect(await kit.pings(checkId)).toEqual([]);
    expect(await kit.results(checkId)).toEqual([]);
  });

  it('any other suffix: 404 "not found"', async () => {
    const { checkId, token } = await kit.pushCheck();
    for (const path of [`/ping/${token}/finish`, `/ping/${token}/-1`, `/ping/${token}/start/now`]) {
      kit.expectText(await api.request('GET', path), 404, 'not found');
    }
    expect(await kit.pings(checkId)).toEqual([]);
  });

  it('?rid=: kept with the ping (lower case); not a UUID: 400 "invalid uuid format"', async () => {
    const { checkId, token } = await kit.pushCheck();
    const rid = 'A1B2C3D4-0000-4000-8000-00000000000F';
    kit.expectText(await api.request('GET', `/ping/${token}/start?rid=${rid}`), 200, 'OK');
    kit.expectText(await api.request('GET', `/ping/${token}?rid=run-1`), 400, 'invalid uuid format');

    const pings = await kit.pings(checkId);
    expect(pings.map((p) => [p.kind, p.rid])).toEqual([['start', rid.toLowerCase()]]);
  });

  it('a body over 100 KB: cut to the limit, marked truncated', async () => {
    const { checkId, token } = await kit.pushCheck();
    // A multi-byte character across the limit: the cut never splits it.
    const body = `${'x'.repeat(PING_BODY_LIMIT_BYTES - 1)}é${'y'.repeat(5000)}`;
    kit.expectText(await api.request('POST', `/ping/${token}/fail`, { rawBody: body }), 200, 'OK');

    const [ping] = await kit.pings(checkId);
    expect(ping?.body_truncated).toBe(true);
    expect(ping?.body).toBe('x'.repeat(PING_BODY_LIMIT_BYTES - 1));
  });

  it("a body over 1 MiB (every route's limit): 413, nothing recorded", async () => {
    const { checkId, token } = await kit.pushCheck();
    const res = await api.request('POST', `/ping/${token}`, { rawBody: Buffer.alloc(1024 * 1024 + 1, 'x') });
    expect(res.status).toBe(413);
    expect(await kit.pings(checkId)).toEqual([]);
  });

  it('another method (PUT, DELETE): 405 in text, naming the methods allowed, nothing recorded', async () => {
    const { checkId, token } = await kit.pushCheck();
    for (const method of ['PUT', 'DELETE']) {
      const res = await api.request(method, `/ping/${token}/fail`, { rawBody: 'x' });
      kit.expectText(res, 405, 'method not allowed');
      expect(res.headers.allow).toBe('GET, HEAD, POST');
    }
    expect(await kit.pings(checkId)).toEqual([]);
  });

  it('an unknown UUID or token: 404 "not found"', async () => {
    await kit.pushCheck();
    for (const token of ['0f0e0d0c-0b0a-4909-8807-060504030201', 'vpt_unknown', 'nope']) {
      for (const path of [`/ping/${token}`, `/ping/${token}/start`, `/ping/${token}/0`]) {
        kit.expectText(await api.request('GET', path), 404, 'not found');
      }
    }
  });

  it('a paused (disabled) check: 200 OK, the ping kept as ignored, nothing recorded', async () => {
    const { checkId, token } = await kit.pushCheck();
    expect((await kit.call('PUT', `/v1/checks/${checkId}`, { enabled: false })).status).toBe(200);
    const before = await kit.state(checkId);

    kit.expectText(await api.request('GET', `/ping/${token}`), 200, 'OK');
    kit.expectText(await api.request('GET', `/ping/${token}/start`), 200, 'OK');
    kit.expectText(await api.request('GET', `/ping/${token}/1`), 200, 'OK');

    const pings = await kit.pings(checkId);
    expect(pings.map((p) => [p.kind, p.ignored])).toEqual([
      ['exit', true],
      ['start', true],
      ['success', true],
    ]);
    expect(await kit.results(checkId)).toEqual([]);
    expect(await kit.state(checkId)).toEqual(before);
  });

  it('new tokens are random v4 UUIDs, shown by an 8-character prefix', async () => {
    const { token } = await kit.pushCheck();
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The npm Healthchecks client validates the check's UUID: a legacy token would not pass.
    expect(() => new HealthChecksPingClient({ uuid: token, baseUrl: 'http://127.0.0.1/ping' })).not.toThrow();
    expect(() => new HealthChecksPingClient({ uuid: `vpt_${'A'.repeat(40)}` })).toThrow();
    // Healthchecks' URL pattern is lower case only: the same UUID in upper case names nothing.
    kit.expectText(await api.request('GET', `/ping/${token.toUpperCase()}`), 404, 'not found');
  });

  it('never logs a token or a ping key: the request log names the form only', async () => {
    const { token } = await kit.pushCheck();
    const pingKey = 'Zz9-Yy8_Xx7Ww6Vv5Uu4Tt';
    await api.request('GET', `/ping/${token}/start?rid=0b7e4f4e-5d0c-4c55-9d2f-1c1f0a9e7a11`);
    await api.request('POST', `/ping/${token}/0`);
    await api.request('GET', `/ping/${pingKey}/some-job/fail`);

    const log = api.logs.join('\n');
    expect(log).not.toContain(token);
    expect(log).not.toContain(pingKey);
    expect(log).toContain('"path":"/ping/{token}/start"');
    expect(log).toContain('"path":"/ping/{token}/some-job/fail"');
  });
});
