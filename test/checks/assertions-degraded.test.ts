import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inProcessProber } from '../../lib/check-types/run-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import { type ApiHarness, adminCall, runtimes } from '../support/api-harness.ts';
import { listenOnLoopback, probeCellSlot } from '../support/cell-fixtures.ts';
import { createTlsFixtures, type KeyPair } from '../support/tls-fixtures.ts';
import { WAIT } from '../support/wait.ts';
import { newEntity } from './check-fixtures.ts';

/**
 * HTTP assertions and the degraded state on real targets on 127.0.0.1, in both runtimes: checks
 * made through the API, probed by the real prober inside the real cell runner (results item, cell
 * state, transitions, entity aggregate), read back through the API; the degraded alert's text
 * through the runtime's whole notify path.
 */

const tls = createTlsFixtures();
let target: Server;
let origin: string;
let soon: TlsServer;
let expired: TlsServer;
let receiver: Receiver;
/** What /health answers; tests switch it. */
let health = { status: 'ok', items: [{ id: 'db', up: true }], version: 7 };

const tlsServer = (pair: KeyPair) => createTlsServer(pair, (socket) => socket.resume().end());
const ports: Record<string, number> = {};

beforeAll(async () => {
  target = createServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json', 'x-build': '42' });
      res.end(JSON.stringify(health));
    } else if (req.url === '/slow') {
      // Answers after 400 ms: slower than the checks' degraded_latency_ms of 100 ms.
      setTimeout(() => res.end('slow but fine'), 400);
    } else res.writeHead(404).end();
  });
  origin = `http://127.0.0.1:${await listenOnLoopback(target)}`;
  soon = tlsServer(tls.expiringIn3Days);
  expired = tlsServer(tls.expired10DaysAgo);
  ports.soon = await listenOnLoopback(soon);
  ports.expired = await listenOnLoopback(expired);
  receiver = await startReceiver(tls.valid, 'unused');
});
afterAll(async () => {
  for (const server of [target, soon, expired]) {
    server?.close();
  }
  await receiver?.close();
});

let interval = 3000;

describe.each(runtimes)('assertions and degraded on real targets ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const prober = inProcessProber({ clock: systemClock, allowPrivate: true, tlsCa: [tls.caCert] });
  const call = (method: string, path: string, body?: unknown) => adminCall(api, method, path, body);

  beforeAll(async () => {
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: { ca: [tls.caCert] } });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** A check alone in its cell (its own interval): its slots are this check's probes only. */
  const check = async (entityId: string, body: Record<string, unknown>) => {
    interval -= 1;
    return call('POST', '/v1/checks', {
      entity_id: entityId,
      failure_threshold: 1,
      interval_seconds: interval,
      ...body,
    });
  };
  let slotMs = Date.now() - 3_600_000;
  /** One slot of the check's cell, probed for real. */
  const probe = async (checkId: string) => {
    slotMs += 60_000;
    return probeCellSlot(api, prober, checkId, slotMs);
  };
  const latest = async (checkId: string) =>
    (await call('GET', `/v1/checks/${checkId}/results?limit=1`)).results[0];

  it('passes json, header, status and body assertions and fails one in words', async () => {
    const entity = await newEntity(api, { key: api.adminKey, name: `json-${api.runtime}` });
    const created = await check(entity, {
      check_type: 'http',
      target_url: `${origin}/health`,
      assertions: [
        { source: 'status', op: 'lt', value: 300 },
        { source: 'json', path: '$.status', op: 'eq', value: 'ok' },
        { source: 'json', path: '$.items[0].up', op: 'eq', value: true },
        { source: 'header', path: 'X-Build', op: 'gte', value: 42 },
        { source: 'body', op: 'matches', value: '"version":\\d+' },
      ],
    });
    expect(created.assertions).toHaveLength(5);
    expect((await call('GET', `/v1/checks/${created.id}`)).assertions[1]).toEqual({
      source: 'json',
      path: '$.status',
      op: 'eq',
      value: 'ok',
    });
    await probe(created.id);
    expect(await latest(created.id)).toMatchObject({ success: true, outcome: 'up', error_message: '' });
    expect((await call('GET', `/v1/checks/${created.id}`)).state).toBe('up');

    health = { ...health, status: 'degraded' };
    try {
      await probe(created.id);
    } finally {
      health = { ...health, status: 'ok' };
    }
    expect(await latest(created.id)).toMatchObject({
      success: false,
      outcome: 'down',
      status_code: 200,
      error_message: 'assertion failed: $.status is "degraded", expected eq "ok"',
    });
    expect((await call('GET', `/v1/checks/${created.id}`)).state).toBe('down');
  });

  it('refuses malformed assertions with the field they name', async () => {
    const entity = await newEntity(api, { key: api.adminKey, name: `bad-${api.runtime}` });
    const res = await api.request('POST', '/v1/checks', {
      key: api.adminKey,
      body: {
        entity_id: entity,
        check_type: 'http',
        target_url: `${origin}/health`,
        assertions: [{ source: 'body', op: 'matches', value: '(a)\\1' }],
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('assertions.0.value');
    const tcp = await api.request('POST', '/v1/checks', {
      key: api.adminKey,
      body: {
        entity_id: entity,
        check_type: 'tcp',
        config: { host: '127.0.0.1', port: 1 },
        assertions: [{ source: 'status', op: 'eq', value: 200 }],
      },
    });
    expect(tcp.status).toBe(400);
  });

  it('a slow success is degraded; the entity, the transition and the alert say so and why', async () => {
    const entity = await newEntity(api, { key: api.adminKey, name: `slow-${api.runtime}` });
    const created = await check(entity, {
      check_type: 'http',
      target_url: `${origin}/slow`,
      degraded_latency_ms: 100,
    });
    expect(created.degraded_latency_ms).toBe(100);
    await call('POST', `/v1/checks/${created.id}/policy`, { cooldown_seconds: 0 });
    const path = `/slack/${api.runtime}-slow`;
    await call('POST', `/v1/checks/${created.id}/policy/channels`, {
      channel_type: 'slack',
      config: { url: `${receiver.origin}${path}` },
    });
    await probe(created.id);
    const result = await latest(created.id);
    expect(result).toMatchObject({ success: true, degraded: true, outcome: 'degraded' });
    expect(result.error_message).toMatch(/^latency \d+ ms is above degraded_latency_ms 100$/);
    expect((await call('GET', `/v1/checks/${created.id}`)).state).toBe('degraded');
    const [transition] = (await call('GET', `/v1/checks/${created.id}/transitions`)).transitions;
    expect(transition).toMatchObject({ from_state: 'unknown', to_state: 'degraded' });
    expect(transition.reason).toMatch(/^degraded: latency \d+ ms is above degraded_latency_ms 100$/);
    const board = await call('GET', '/v1/status');
    expect(board.entities.find((e: { id: string }) => e.id === entity)).toMatchObject({ state: 'degraded' });
    expect(board.degraded).toBeGreaterThanOrEqual(1);

    const sentTo = () => receiver.received.filter((r) => r.path === path).map((r) => r.body.toString('utf8'));
    // A notify job that failed an attempt (a loaded machine) comes back after its retry delay: wait
    // for the send, bounded, and name the failed attempts if it never comes.
    await vi.waitFor(async () => {
      await api.drainChanges();
      await api.runNotifyJobs();
      const failed = api.logs.filter((line) => line.includes('job failed'));
      expect(sentTo(), failed.join('\n').slice(0, 2000)).toHaveLength(1);
    }, WAIT);
    const sent = sentTo();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('is degraded');
    expect(sent[0]).toMatch(/Why: latency \d+ ms is above degraded_latency_ms 100/);
  });

  it('tls: degraded inside the expiry threshold, down once expired', async () => {
    const entity = await newEntity(api, { key: api.adminKey, name: `tls-${api.runtime}` });
    const near = await check(entity, {
      check_type: 'tls',
      config: { host: '127.0.0.1', port: ports.soon, expiry_threshold_days: 14 },
    });
    await probe(near.id);
    expect(await latest(near.id)).toMatchObject({
      success: true,
      outcome: 'degraded',
      error_message: 'certificate expires in 3 days (threshold 14)',
    });
    expect((await call('GET', `/v1/checks/${near.id}`)).state).toBe('degraded');

    const gone = await check(entity, {
      check_type: 'tls',
      config: { host: '127.0.0.1', port: ports.expired },
    });
    await probe(gone.id);
    expect(await latest(gone.id)).toMatchObject({ success: false, outcome: 'down' });
    expect((await latest(gone.id)).error_message).toMatch(/^certificate expired 10 days ago/);
    expect((await call('GET', `/v1/checks/${gone.id}`)).state).toBe('down');
    // The worst check wins (issue 35): one down check takes the entity down beside a degraded one.
    const board = await call('GET', '/v1/status');
    expect(board.entities.find((e: { id: string }) => e.id === entity)).toMatchObject({ state: 'down' });
  });

  it('updates and clears assertions and degraded_latency_ms', async () => {
    const entity = await newEntity(api, { key: api.adminKey, name: `upd-${api.runtime}` });
    const created = await check(entity, { check_type: 'http', target_url: `${origin}/health` });
    expect(created).toMatchObject({ assertions: [], degraded_latency_ms: null });
    const updated = await call('PUT', `/v1/checks/${created.id}`, {
      assertions: [{ source: 'json', path: '$.version', op: 'gt', value: 5 }],
      degraded_latency_ms: 2000,
    });
    expect(updated).toMatchObject({
      assertions: [{ path: '$.version', op: 'gt', value: 5 }],
      degraded_latency_ms: 2000,
    });
    const cleared = await call('PUT', `/v1/checks/${created.id}`, {
      assertions: [],
      degraded_latency_ms: null,
    });
    expect(cleared).toMatchObject({ assertions: [], degraded_latency_ms: null });
  });
});
