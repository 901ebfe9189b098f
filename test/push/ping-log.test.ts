import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPing, type PingRecord, pingRecordedOp } from '../../lib/push/log/ping-items.ts';
import { newCheck as createCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * GET /v1/checks/{id}/pings: a push check's ping log, newest first, in sealed-cursor pages bounded
 * in count and bytes; 404 for another tenant's check, 409 for a pull check; bodies redacted for
 * read-only keys only. Pings are seeded as the ping receiver writes them (pingRecordedOp).
 */

const JOB_OUTPUT = [
  'starting backup',
  '> Authorization: Bearer s3cr3t-bearer',
  'DB_PASSWORD=hunter2',
  'curl -H "X-Api-Key: k3y" https://example.test',
  'tokens processed: 5',
  'done',
].join('\n');

describe.each(runtimes)('the ping log API ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  let readOnlyKey: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  const newCheck = (body: Record<string, unknown>) => createCheck(api, { entity_id: entityId, ...body });
  const pushCheck = () => newCheck({ check_type: 'push', interval_seconds: 3600 });

  /** Writes pings as the receiver does; `retentionDays` decides when they expire. */
  const seed = async (
    checkId: string,
    pings: (Partial<Omit<PingRecord, 'id' | 'at'>> & { atMs: number })[],
    retentionDays = 30,
  ) => {
    const written: PingRecord[] = [];
    for (const { atMs, ...fields } of pings) {
      const ping = newPing(
        {
          check_id: checkId,
          kind: 'success',
          body: '',
          method: 'POST',
          source_ip: '127.0.0.1',
          user_agent: 'curl/8.5.0',
          ...fields,
        },
        atMs,
      );
      await api.table.transact([pingRecordedOp(ping, retentionDays)]);
      written.push(ping);
    }
    return written;
  };

  beforeAll(async () => {
    api = await start();
    await call('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
    const entity = await call('POST', '/v1/blueprints/cron/entities', { slug: 'backup', name: 'Backup' });
    entityId = entity.body.id;
    const key = await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true });
    expect(key.status, key.text).toBe(201);
    readOnlyKey = key.body.key;
  });
  afterAll(async () => {
    await api.close();
  });

  it('lists a run as the receiver stored it: start, then its end with exit status, rid, duration and method', async () => {
    const checkId = await pushCheck();
    const now = Date.now();
    const [started, ended] = await seed(checkId, [
      { atMs: now - 60_000, kind: 'start', rid: 'run-1', body: '', method: 'HEAD' },
      {
        atMs: now - 30_000,
        kind: 'exit',
        exit_status: 3,
        rid: 'run-1',
        body: 'disk full',
        duration_ms: 30_000,
        result_id: 'res_x',
      },
    ]);
    const res = await call('GET', `/v1/checks/${checkId}/pings`);

    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      pings: [
        {
          id: ended?.id,
          at: ended?.at,
          kind: 'exit',
          exit_status: 3,
          rid: 'run-1',
          body: 'disk full',
          method: 'POST',
          source_ip: '127.0.0.1',
          user_agent: 'curl/8.5.0',
          duration_ms: 30_000,
        },
        {
          id: started?.id,
          at: started?.at,
          kind: 'start',
          rid: 'run-1',
          body: '',
          method: 'HEAD',
          source_ip: '127.0.0.1',
          user_agent: 'curl/8.5.0',
        },
      ],
      next_cursor: null,
    });
  });

  it('pages newest first with sealed cursors, every ping once, expired ones left out', async () => {
    const checkId = await pushCheck();
    const now = Date.now();
    const seeded = await seed(
      checkId,
      Array.from({ length: 25 }, (_, i) => ({ atMs: now - (25 - i) * 60_000, body: `run ${i}` })),
    );
    // Two days old with a one-day retention: its TTL has passed (DynamoDB deletes lazily).
    await seed(checkId, [{ atMs: now - 2 * 86_400_000, body: 'expired' }], 1);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await call('GET', `/v1/checks/${checkId}/pings?limit=10${query}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.pings.length).toBeLessThanOrEqual(10);
      seen.push(...res.body.pings.map((p: { body: string }) => p.body));
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);

    expect(pages).toBe(3);
    expect(seen).toEqual(seeded.map((p) => p.body).reverse());
    const defaults = await call('GET', `/v1/checks/${checkId}/pings`);
    expect(defaults.body.pings).toHaveLength(20);
  });

  it('refuses a cursor of another list and a limit out of bounds', async () => {
    const [a, b] = [await pushCheck(), await pushCheck()];
    const now = Date.now();
    await seed(a, [{ atMs: now - 2000 }, { atMs: now - 1000 }]);
    const first = await call('GET', `/v1/checks/${a}/pings?limit=1`);
    expect(first.body.next_cursor).toEqual(expect.any(String));

    const crossed = await call(
      'GET',
      `/v1/checks/${b}/pings?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(crossed.status).toBe(400);
    expect((await call('GET', `/v1/checks/${a}/pings?limit=101`)).status).toBe(400);
    expect((await call('GET', `/v1/checks/${a}/pings?limit=0`)).status).toBe(400);
  });

  it('ends a page after about 1 MB of pings, the next page going on from there', async () => {
    const checkId = await pushCheck();
    const now = Date.now();
    const big = 'x'.repeat(100 * 1024);
    await seed(
      checkId,
      Array.from({ length: 12 }, (_, i) => ({ atMs: now - (12 - i) * 1000, body: `${i}:${big}` })),
    );

    const first = await call('GET', `/v1/checks/${checkId}/pings?limit=100`);
    expect(first.status).toBe(200);
    expect(first.body.pings.map((p: { body: string }) => p.body.split(':')[0])).toEqual([
      '11',
      '10',
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
    ]);
    const rest = await call(
      'GET',
      `/v1/checks/${checkId}/pings?limit=100&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(rest.body.pings.map((p: { body: string }) => p.body.split(':')[0])).toEqual(['2', '1', '0']);
    expect(rest.body.next_cursor).toBeNull();
  });

  it("answers 404 for another tenant's check and 409 for a pull check", async () => {
    const checkId = await pushCheck();
    await seed(checkId, [{ atMs: Date.now(), body: 'private output' }]);
    const intruder = await api.createTenant('Intruder');

    const foreign = await call('GET', `/v1/checks/${checkId}/pings`, undefined, intruder.key);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('private output');

    const pull = await newCheck({
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: 9 },
      enabled: false,
    });
    const refused = await call('GET', `/v1/checks/${pull}/pings`);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
  });

  it('redacts secret-looking lines of bodies for read-only keys only', async () => {
    const checkId = await pushCheck();
    await seed(checkId, [{ atMs: Date.now(), kind: 'fail', body: JOB_OUTPUT }]);

    const writer = await call('GET', `/v1/checks/${checkId}/pings`);
    expect(writer.body.pings[0].body).toBe(JOB_OUTPUT);

    const viewer = await call('GET', `/v1/checks/${checkId}/pings`, undefined, readOnlyKey);
    expect(viewer.status, viewer.text).toBe(200);
    expect(viewer.body.pings[0].body).toBe(
      [
        'starting backup',
        '> Authorization: ********',
        'DB_PASSWORD=********',
        'curl -H "X-Api-Key: ********',
        'tokens processed: 5',
        'done',
      ].join('\n'),
    );
    for (const secret of ['s3cr3t-bearer', 'hunter2', 'k3y']) expect(viewer.text).not.toContain(secret);
  });
});
