import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { pushCheckFixtures } from '../support/push-fixtures.ts';

/**
 * GET /v1/search in both runtimes: one text finds the tenant's entities, checks, shared channels,
 * incidents and status pages, each with its console path; another tenant's never; read-only keys
 * may search; the text and the results are bounded.
 */
describe.each(runtimes)('global search ($runtime)', ({ start }) => {
  let api: ApiHarness;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown, expected?: number): Promise<any> => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    if (expected !== undefined) expect(res.status, `${method} ${path}: ${res.text}`).toBe(expected);
    return res.body;
  };
  const search = async (q: string, key = api.adminKey, extra = '') => {
    const res = await api.request('GET', `/v1/search?q=${encodeURIComponent(q)}${extra}`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body.results as { kind: string; id: string; name: string; context: string; path: string }[];
  };
  let payments: { entityId: string; checkId: string };

  beforeAll(async () => {
    api = await start();
    const fx = pushCheckFixtures(call, () => api.drainChanges());
    payments = await fx.entityWithCheck('Payments API');
    await fx.entityWithCheck('Billing worker');
    await call('PUT', `/v1/checks/${payments.checkId}`, { name: 'Payments heartbeat' }, 200);
    await call(
      'POST',
      '/v1/notify/channels',
      { name: 'Payments on-call', channel_type: 'nats', config: { subject: 'pay.alerts' } },
      201,
    );
    await call(
      'POST',
      '/v1/status-pages',
      { slug: 'payments-status', title: 'Payments status', entity_ids: [payments.entityId] },
      201,
    );
    await fx.result(payments.checkId, true);
    await fx.result(payments.checkId, false);
  });
  afterAll(async () => {
    await api.close();
  });

  it('finds each kind by its name, with a console path, grouped by kind', async () => {
    const results = await search('pay');
    expect(results.map((r) => r.kind)).toEqual(['entity', 'check', 'channel', 'incident', 'status_page']);
    const [entity, check, channel, incident, page] = results;
    expect(entity).toMatchObject({
      id: payments.entityId,
      name: 'Payments API',
      context: 'svc',
      path: '/entities/svc/e1',
    });
    expect(check).toMatchObject({
      id: payments.checkId,
      name: 'Payments heartbeat',
      path: `/checks/${payments.checkId}`,
    });
    expect(check?.context).toBe('Payments API · push');
    expect(channel).toMatchObject({ name: 'Payments on-call', context: 'nats', path: '/channels' });
    expect(JSON.stringify(channel)).not.toContain('pay.alerts');
    expect(incident).toMatchObject({ name: 'Payments API', state: 'open' });
    expect(incident?.path).toBe(`/incidents/${incident?.id}`);
    expect(page).toMatchObject({ id: 'payments-status', name: 'Payments status', path: '/status-pages' });
  });

  it('finds entities by slug, checks through their entity, and an object by its id', async () => {
    expect((await search('E2')).map((r) => [r.kind, r.name])).toEqual([
      ['entity', 'Billing worker'],
      ['check', expect.stringContaining('Push')],
    ]);
    expect((await search('billing')).filter((r) => r.kind === 'check')).toHaveLength(1);
    expect((await search(payments.checkId)).map((r) => r.name)).toEqual(['Payments heartbeat']);
    expect((await search(payments.entityId)).map((r) => r.kind)).toEqual(['entity', 'check', 'incident']);
    // One kind only (the console's entity picker).
    expect((await search('pay', api.adminKey, '&kind=entity')).map((r) => r.kind)).toEqual(['entity']);
    expect((await search('pay', api.adminKey, '&kind=incident')).map((r) => r.name)).toEqual([
      'Payments API',
    ]);
  });

  it('never shows another tenant’s objects, and lets a read-only key search', async () => {
    const other = await api.createTenant('Other');
    const as = (key: string) => async (method: string, path: string, body?: unknown) => {
      const res = await api.request(method, path, { key, body });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const post = as(other.key);
    await post('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const theirs = await post('POST', '/v1/blueprints/svc/entities', {
      slug: 'pay',
      name: 'Payments elsewhere',
    });
    await post('POST', '/v1/checks', {
      entity_id: theirs.id,
      check_type: 'push',
      name: 'Payments check elsewhere',
    });
    await post('POST', '/v1/notify/channels', {
      name: 'Payments elsewhere',
      channel_type: 'nats',
      config: { subject: 'x.y' },
    });
    const mine = await search('pay');
    expect(mine.map((r) => r.name)).not.toContain('Payments elsewhere');
    expect(mine.map((r) => r.name)).not.toContain('Payments check elsewhere');
    const theirResults = await search('pay', other.key);
    expect(theirResults.map((r) => r.id)).not.toContain(payments.entityId);
    expect(theirResults.map((r) => r.name)).toEqual([
      'Payments elsewhere',
      'Payments check elsewhere',
      'Payments elsewhere',
    ]);
    // Ids of another tenant's objects find nothing.
    expect(await search(payments.checkId, other.key)).toEqual([]);
    expect(await search(payments.entityId, other.key)).toEqual([]);

    const readOnly = (await call('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true }, 201)).key;
    expect((await search('pay', readOnly)).length).toBe(5);
  });

  it('bounds the text and the results per kind; an empty text finds nothing', async () => {
    expect(await search('')).toEqual([]);
    expect(await search('   ')).toEqual([]);
    expect((await search('e', api.adminKey, '&limit=1')).filter((r) => r.kind === 'entity')).toHaveLength(1);
    const long = await api.request('GET', `/v1/search?q=${'a'.repeat(101)}`, { key: api.adminKey });
    expect(long.status).toBe(400);
    const many = await api.request('GET', '/v1/search?q=a&limit=21', { key: api.adminKey });
    expect(many.status).toBe(400);
  });
});
