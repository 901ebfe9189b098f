import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEntity } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** What a push check accepts: failures without latency, intervals up to 30 days, a grace no shorter than the interval. */
describe.each(runtimes)('push check input ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const createPush = (body: Record<string, unknown>) =>
    call('POST', '/v1/checks', { entity_id: entityId, check_type: 'push', ...body });

  beforeAll(async () => {
    api = await start();
    entityId = await newEntity(api, { blueprint: 'job', name: 'Monthly' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('accepts a failure without latency_ms (stored as 0) but still asks a success for it', async () => {
    const id = (await createPush({})).body.id;

    const failed = await call('POST', `/v1/checks/${id}/results`, {
      success: false,
      error_message: 'disk full',
    });
    const success = await call('POST', `/v1/checks/${id}/results`, { success: true });

    expect(failed.status, failed.text).toBe(201);
    expect(failed.body).toMatchObject({ success: false, latency_ms: 0, error_message: 'disk full' });
    expect(success.status).toBe(400);
    expect(success.body.details).toEqual([{ path: 'latency_ms', message: 'This field is required.' }]);
  });

  it('takes Healthchecks\' "period 1 h, grace 10 min" as interval 3600 and grace_seconds 4200', async () => {
    const res = await createPush({ interval_seconds: 3600, config: { grace_seconds: 4200 } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ interval_seconds: 3600, config: { grace_seconds: 4200 } });
  });

  it('refuses a grace shorter than the interval, in words, on create and on update (merged)', async () => {
    const short = await createPush({ interval_seconds: 3600, config: { grace_seconds: 600 } });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('VALIDATION_ERROR');
    expect(short.body.details).toEqual([
      {
        path: 'config.grace_seconds',
        message: expect.stringMatching(
          /^Enter 3600 or more \(the interval\): the grace is the whole silence allowed after a report/,
        ),
      },
    ]);

    const id = (await createPush({ interval_seconds: 3600, config: { grace_seconds: 3600 } })).body.id;
    const longer = await call('PUT', `/v1/checks/${id}`, { interval_seconds: 7200 });
    expect(longer.status).toBe(400);
    expect(longer.body.details[0].path).toBe('config.grace_seconds');
    const shorter = await call('PUT', `/v1/checks/${id}`, { config: { grace_seconds: 60 } });
    expect(shorter.status).toBe(400);
    expect((await call('GET', `/v1/checks/${id}`)).body).toMatchObject({
      interval_seconds: 3600,
      config: { grace_seconds: 3600 },
    });
    const both = await call('PUT', `/v1/checks/${id}`, {
      interval_seconds: 7200,
      config: { grace_seconds: 9000 },
    });
    expect(both.status, both.text).toBe(200);
  });

  it('takes push intervals up to 30 days, while probed checks stay at one day at most', async () => {
    expect((await createPush({ interval_seconds: 2_592_000 })).status).toBe(201);
    expect((await createPush({ interval_seconds: 2_592_001 })).status).toBe(400);

    const tcp = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: 9 },
      interval_seconds: 86_401,
      enabled: false,
    });
    expect(tcp.status).toBe(400);
    const pull = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: 9 },
      enabled: false,
    });
    const longer = await call('PUT', `/v1/checks/${pull.body.id}`, { interval_seconds: 172_800 });
    expect(longer.status).toBe(400);
    expect(longer.body.details).toEqual([
      {
        path: 'interval_seconds',
        message:
          'Check at least once a day (86400 seconds or less); only push checks may wait up to 30 days.',
      },
    ]);
  });
});
