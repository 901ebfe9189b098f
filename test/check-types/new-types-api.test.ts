import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEntity } from '../checks/check-fixtures.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';

/** The icmp and domain check types through POST/PUT/GET /v1/checks, in both runtimes. */
describe.each(bothRuntimes)('icmp and domain checks ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const create = (check_type: string, config: unknown, extra: Record<string, unknown> = {}) =>
    call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type,
      interval_seconds: 86_400,
      config,
      ...extra,
    });

  beforeAll(async () => {
    api = await start();
    entityId = await newEntity(api);
  });
  afterAll(async () => {
    await api.close();
  });

  it(runtime === 'local' ? 'creates an icmp check' : 'refuses icmp checks with the reason', async () => {
    const res = await create('icmp', { host: 'router.example', count: 5, max_loss_percent: 20 });
    if (runtime === 'local') {
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        check_type: 'icmp',
        name: 'Ping router.example',
        config: { host: 'router.example', count: 5, max_loss_percent: 20 },
      });
    } else {
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain('AWS Lambda does not give: run them on the local runtime');
    }
  });

  it('creates a domain check', async () => {
    const res = await create('domain', { domain: 'Example.COM', expiry_threshold_days: 14 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      check_type: 'domain',
      name: 'Domain example.com',
      config: { domain: 'example.com', expiry_threshold_days: 14 },
    });
  });

  it.each([
    ['domain', { domain: 'https://example.com/' }, 'config.domain'],
    ['domain', { domain: 'example.com', expiry_threshold_days: 0 }, 'config.expiry_threshold_days'],
  ])('refuses a bad %s config naming the field', async (type, config, path) => {
    const res = await create(type, config);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details).toContainEqual(expect.objectContaining({ path }));
  });

  it('runs domain checks at most hourly (RDAP servers rate-limit): create and update', async () => {
    const sentence = expect.objectContaining({
      path: 'interval_seconds',
      message: expect.stringContaining('Enter 3600 or more'),
    });
    const short = await create('domain', { domain: 'example.com' }, { interval_seconds: 600 });
    expect(short.status, short.text).toBe(400);
    expect(short.body.details).toContainEqual(sentence);
    const res = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'domain',
      config: { domain: 'example.org' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.interval_seconds).toBe(3600);
    const update = await call('PUT', `/v1/checks/${res.body.id}`, { interval_seconds: 3599 });
    expect(update.status, update.text).toBe(400);
    expect(update.body.details).toContainEqual(sentence);
    expect((await call('PUT', `/v1/checks/${res.body.id}`, { interval_seconds: 7200 })).status).toBe(200);
  });

  if (runtime === 'local')
    it('refuses a bad icmp config naming the field', async () => {
      const res = await create('icmp', { host: 'a.example', count: 11 });
      expect(res.status, res.text).toBe(400);
      expect(res.body.details).toContainEqual(
        expect.objectContaining({ path: 'config.count', message: 'Send at most 10 echo requests per run.' }),
      );
    });
});
