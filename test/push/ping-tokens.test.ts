import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../lib/auth/api-key.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { getPushTokenByHash, pushTokenCreatedOps } from '../../lib/push/tokens/push-token-items.ts';
import { checkPartition } from '../../lib/store/partitions.ts';
import { type ApiHarness, bothRuntimes, type LocalHarness } from '../support/api-harness.ts';

/** Ping URLs: a push check's own token, used without an API key (Healthchecks-style). */
describe.each(bothRuntimes)('ping URLs ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  const newCheck = async (body: Record<string, unknown> = {}) => {
    const res = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
      ...body,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const newToken = async (checkId: string) => {
    const res = await call('POST', `/v1/checks/${checkId}/push-tokens`);
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; token: string; prefix: string };
  };

  beforeAll(async () => {
    api = await start();
    await call('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
    entityId = (await call('POST', '/v1/blueprints/cron/entities', { slug: 'backup', name: 'Backup' })).body
      .id;
  });
  afterAll(async () => {
    await api.close();
  });

  /** The address the harness's requests come in on: the local server's, or API Gateway's domain. */
  const ownOrigin = () =>
    api.runtime === 'local' ? (api as LocalHarness).local.url : 'https://api.example.com';

  it('answers the ping URL on the address the request came in on when VIGIL_PUBLIC_URL is not set', async () => {
    const checkId = await newCheck();
    const created = await call('POST', `/v1/checks/${checkId}/push-tokens`);

    expect(created.status, created.text).toBe(201);
    expect(created.body.ping_url).toBe(`${ownOrigin()}/ping/${created.body.token}`);
    // A Host the server is not known by never makes a URL (it would be the client's word only);
    // sent through the API Gateway event (fetch sends no Host of its own choosing).
    if (api.runtime === 'local') return;
    const foreign = await api.request('POST', `/v1/checks/${checkId}/push-tokens`, {
      key: api.adminKey,
      headers: { host: 'evil.example' },
    });
    expect(foreign.status, foreign.text).toBe(201);
    expect(foreign.body.ping_url).toBeNull();
  });

  it('shows the token once and lists the ping URL by its prefix only', async () => {
    const checkId = await newCheck();
    const created = await call('POST', `/v1/checks/${checkId}/push-tokens`);

    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ check_id: checkId, last_used_at: null });
    expect(created.body.token).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(created.body.prefix).toBe(created.body.token.slice(0, 8));
    const listed = await call('GET', `/v1/checks/${checkId}/push-tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: created.body.id,
        check_id: checkId,
        prefix: created.body.prefix,
        created_at: created.body.created_at,
        last_used_at: null,
      },
    ]);
    expect(listed.text).not.toContain(created.body.token);
  });

  it('records a success on GET or POST /ping/{token} without an API key, whatever the body', async () => {
    const checkId = await newCheck();
    const { token } = await newToken(checkId);

    const viaGet = await api.request('GET', `/ping/${token}`);
    const viaPost = await api.request('POST', `/ping/${token}`, {
      rawBody: 'backup done: 42 files',
      headers: { 'content-type': 'text/plain' },
    });

    expect(viaGet.status, viaGet.text).toBe(200);
    expect(viaGet.text).toBe('OK');
    expect(viaGet.headers['cache-control']).toBe('no-store');
    expect(viaPost.status, viaPost.text).toBe(200);
    expect((await call('GET', `/v1/checks/${checkId}`)).body.state).toBe('up');
    const [listed] = (await call('GET', `/v1/checks/${checkId}/push-tokens`)).body;
    expect(listed.last_used_at).not.toBeNull();
    // The token is a credential: the request log names the route, never the token.
    expect(api.logs.join('\n')).not.toContain(token);
    expect(api.logs.some((line) => line.includes('"path":"/ping/{token}"'))).toBe(true);
  });

  it('records a failure on /ping/{token}/fail (GET or POST) with latency 0', async () => {
    const checkId = await newCheck();
    const { token } = await newToken(checkId);

    const failed = await api.request('POST', `/ping/${token}/fail`, {
      rawBody: '{"kept": "as text"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(failed.status, failed.text).toBe(200);
    const [result] = (await call('GET', `/v1/checks/${checkId}/results`)).body.results;
    expect(result).toMatchObject({ success: false, latency_ms: 0 });
    expect((await call('GET', `/v1/checks/${checkId}`)).body.state).toBe('down');
    expect((await api.request('GET', `/ping/${token}/fail`)).status).toBe(200);
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
    expect((await call('GET', `/v1/checks/${checkId}`)).body.state).toBe('up');
  });

  it('keeps legacy vpt_ tokens working', async () => {
    const checkId = await newCheck();
    const legacy = `vpt_${'L'.repeat(40)}_${checkId}`;
    const { ops } = pushTokenCreatedOps(
      { tenantId: api.tenantId, checkId, hash: hashApiKey(legacy), prefix: legacy.slice(0, 12) },
      Date.now(),
    );
    await api.table.transact(ops);

    const res = await api.request('GET', `/ping/${legacy}`);
    expect([res.status, res.text]).toEqual([200, 'OK']);
    expect((await api.request('GET', `/ping/${legacy}/fail`)).status).toBe(200);
    expect((await call('GET', `/v1/checks/${checkId}`)).body.state).toBe('down');
    expect((await api.request('GET', `/ping/${legacy.replace('LLL', 'LLM')}`)).status).toBe(404);
  });

  it('answers 404 to a wrong, malformed, foreign-check or revoked token alike', async () => {
    const checkId = await newCheck();
    const otherCheck = await newCheck();
    const { id, token } = await newToken(checkId);
    const wrongSecret = `vpt_${'A'.repeat(40)}_${checkId}`;
    const legacy = `vpt_${'B'.repeat(40)}_${checkId}`;
    await api.table.transact(
      pushTokenCreatedOps(
        { tenantId: api.tenantId, checkId, hash: hashApiKey(legacy), prefix: legacy.slice(0, 12) },
        Date.now(),
      ).ops,
    );
    const movedToOtherCheck = legacy.replace(checkId, otherCheck);
    const unknownCheck = legacy.replace(checkId, newId('chk'));
    const otherUuid = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;

    for (const bad of [wrongSecret, movedToOtherCheck, unknownCheck, 'nope', token.slice(0, -1), otherUuid]) {
      const res = await api.request('POST', `/ping/${encodeURIComponent(bad)}`);
      expect([res.status, res.text], bad).toEqual([404, 'not found']);
    }
    expect((await call('DELETE', `/v1/checks/${checkId}/push-tokens/${id}`)).status).toBe(204);
    expect((await api.request('GET', `/ping/${token}`)).text).toBe('not found');
    // The revoke deleted the token's lookup item with it.
    expect(await getPushTokenByHash(api.table, hashApiKey(token))).toBeUndefined();
    expect((await call('DELETE', `/v1/checks/${checkId}/push-tokens/${id}`)).status).toBe(404);
    expect((await call('GET', `/v1/checks/${checkId}/results`)).body.results).toEqual([]);
  });

  it('answers a paused check OK (as Healthchecks does; its keyed route 409) and refuses ping URLs for pull checks', async () => {
    const checkId = await newCheck();
    const { token } = await newToken(checkId);
    expect((await call('PUT', `/v1/checks/${checkId}`, { enabled: false })).status).toBe(200);

    const pinged = await api.request('POST', `/ping/${token}`);
    const keyed = await call('POST', `/v1/checks/${checkId}/heartbeat`);
    expect([pinged.status, pinged.text]).toEqual([200, 'OK']);
    expect(keyed.status).toBe(409);
    expect((await call('GET', `/v1/checks/${checkId}/results`)).body.results).toEqual([]);

    const pull = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: 9 },
      enabled: false,
    });
    const refused = await call('POST', `/v1/checks/${pull.body.id}/push-tokens`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/only push checks have ping URLs/);
  });

  it('allows 10 ping URLs per check (403 LIMIT_EXCEEDED beyond) and one more once one is revoked', async () => {
    const checkId = await newCheck();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => newToken(checkId)));

    const eleventh = await call('POST', `/v1/checks/${checkId}/push-tokens`);
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.code).toBe('LIMIT_EXCEEDED');
    expect(eleventh.body.error).toMatch(/already has 10 ping URLs/);
    expect((await call('GET', `/v1/checks/${checkId}/push-tokens`)).body).toHaveLength(10);
    const first = tokens[0];
    expect((await call('DELETE', `/v1/checks/${checkId}/push-tokens/${first?.id}`)).status).toBe(204);
    expect((await call('POST', `/v1/checks/${checkId}/push-tokens`)).status).toBe(201);
  });

  it('keeps ping URLs to their tenant: another tenant cannot list, create or revoke them', async () => {
    const checkId = await newCheck();
    const { id } = await newToken(checkId);
    const intruder = (await api.createTenant('Intruder')).key;

    expect((await call('GET', `/v1/checks/${checkId}/push-tokens`, undefined, intruder)).status).toBe(404);
    expect((await call('POST', `/v1/checks/${checkId}/push-tokens`, undefined, intruder)).status).toBe(404);
    expect(
      (await call('DELETE', `/v1/checks/${checkId}/push-tokens/${id}`, undefined, intruder)).status,
    ).toBe(404);
    expect((await call('GET', `/v1/checks/${checkId}/push-tokens`)).body).toHaveLength(1);
  });

  it('removes the ping URLs with their check, their lookup items too', async () => {
    const checkId = await newCheck();
    const { token } = await newToken(checkId);
    expect(await getPushTokenByHash(api.table, hashApiKey(token))).toBeDefined();
    expect((await call('DELETE', `/v1/checks/${checkId}`)).status).toBe(204);

    expect((await api.request('POST', `/ping/${token}`)).status).toBe(404);
    await api.drainChanges();
    const left = await api.table.query({ pk: checkPartition(checkId), consistent: true });
    expect(left.items).toEqual([]);
    expect(await getPushTokenByHash(api.table, hashApiKey(token))).toBeUndefined();
  });

  it("removes the lookup items of a deleted entity's checks", async () => {
    const entity = await call('POST', '/v1/blueprints/cron/entities', { slug: 'gone', name: 'Gone' });
    const check = await call('POST', '/v1/checks', { entity_id: entity.body.id, check_type: 'push' });
    const { token } = await newToken(check.body.id);
    expect((await call('DELETE', `/v1/blueprints/cron/entities/gone`)).status).toBe(204);

    await api.drainChanges();
    expect(await getPushTokenByHash(api.table, hashApiKey(token))).toBeUndefined();
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(404);
  });
});

describe.each(bothRuntimes)('ping URL rate limits ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let checkId: string;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });

  beforeAll(async () => {
    // A fake clock on a minute boundary: the cloud's windows and the local buckets both start full.
    api = await start({
      clock: createFakeClock(Date.parse('2026-01-01T00:00:00.000Z')),
      env: {
        VIGIL_RATE_LIMIT_RPS: '0.01',
        VIGIL_RATE_LIMIT_BURST: '10',
        VIGIL_AUTH_FAILURE_LIMIT: '3',
        VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '5',
      },
    });
    await call('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
    const entity = (await call('POST', '/v1/blueprints/cron/entities', { slug: 'backup', name: 'Backup' }))
      .body;
    checkId = (await call('POST', '/v1/checks', { entity_id: entity.id, check_type: 'push' })).body.id;
  });
  afterAll(async () => {
    await api.close();
  });

  it('limits each check on its own, all its ping URLs together: 429 (text) with Retry-After past its burst', async () => {
    const token = (await call('POST', `/v1/checks/${checkId}/push-tokens`)).body.token;
    const sameCheck = (await call('POST', `/v1/checks/${checkId}/push-tokens`)).body.token;
    const entity = (await call('POST', '/v1/blueprints/cron/entities', { slug: 'report', name: 'Report' }))
      .body;
    const otherCheck = (await call('POST', '/v1/checks', { entity_id: entity.id, check_type: 'push' })).body
      .id;
    const other = (await call('POST', `/v1/checks/${otherCheck}/push-tokens`)).body.token;

    const statuses = new Set<number>();
    for (let i = 0; i < 10; i += 1) statuses.add((await api.request('POST', `/ping/${token}`)).status);
    const limited = await api.request('POST', `/ping/${token}`);

    expect([...statuses]).toEqual([200]);
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^text\/plain/);
    expect(limited.text).toBe('too many pings for this check');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await api.request('POST', `/ping/${sameCheck}`)).status).toBe(429);
    expect((await api.request('POST', `/ping/${other}`)).status).toBe(200);
  });

  it('counts wrong tokens as failed authentications of the address, a right one then refused too', async () => {
    const token = (await call('POST', `/v1/checks/${checkId}/push-tokens`)).body.token;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await api.request('GET', `/ping/0000000${i}-0000-4000-8000-000000000000`)).status);
    }

    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    const right = await api.request('GET', `/ping/${token}`);
    expect(right.status).toBe(429);
    expect(right.text).toMatch(/too many failed authentications/);
  });
});
