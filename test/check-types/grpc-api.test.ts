import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactOutcome } from '../../lib/check-types/outcome-redaction.ts';
import { runProbe } from '../../lib/check-types/run-probe.ts';
import { probeDefinition } from '../../lib/checks/probe-job.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * gRPC checks through POST/PUT/GET /v1/checks, in both runtimes: metadata values are written-only
 * (read `********`), `********` on update keeps the stored value, and the probe built from the
 * stored check sends the real value to a local health server.
 */

let server: grpc.Server;
let port = 0;
/** The authorization metadata the server's Check handler saw last. */
let seen: unknown;

beforeAll(async () => {
  server = new grpc.Server();
  server.addService(healthService, {
    check(call: grpc.ServerUnaryCall<{ service: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
      seen = call.metadata.getMap().authorization;
      callback(null, { status: 'SERVING' });
    },
  });
  port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    );
  });
});
afterAll(() => {
  server.forceShutdown();
});

it('hides metadata values in any stored outcome (the definition names them as its secrets)', () => {
  const job = {
    check_type: 'grpc',
    host: 'grpc.example',
    port: 50051,
    metadata: { authorization: 'Bearer h1dden' },
    timeout_ms: 1000,
  };
  const outcome = redactOutcome(
    { success: false, latency_ms: 1, status_code: 0, error_message: 'denied: Bearer h1dden' },
    job,
  );
  expect(outcome.error_message).toBe('denied: ********');
});

describe.each(runtimes)('grpc checks ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown, key?: string) =>
    api.request(method, path, { key: key ?? api.adminKey, body });
  const create = (config: unknown) =>
    call('POST', '/v1/checks', { entity_id: entityId, check_type: 'grpc', interval_seconds: 300, config });

  /** Probes the check as stored (the job the scheduler builds) and returns what the server saw. */
  const probeStored = async (id: string) => {
    const stored = await api.app.checks.get(api.tenantId, id);
    const definition = stored && probeDefinition(stored);
    if (!definition) throw new Error('no probe definition');
    seen = undefined;
    const outcome = await runProbe(definition, { clock: systemClock, allowPrivate: true });
    expect(outcome.success, outcome.error_message ?? '').toBe(true);
    return seen;
  };

  beforeAll(async () => {
    // No scheduler: the probes here are the test's own, so `seen` is theirs.
    api = await start({ scheduler: false });
    entityId = await newEntity(api);
  });
  afterAll(async () => {
    await api.close();
  });

  it('shows metadata values as ******** and keeps them on an update that sends ******** back', async () => {
    const res = await create({
      host: '127.0.0.1',
      port,
      service: 'shop.Orders',
      metadata: { authorization: 'Bearer s3cret', 'x-tenant': 'acme' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      check_type: 'grpc',
      name: `gRPC 127.0.0.1:${port} shop.Orders`,
      config: { host: '127.0.0.1', port, metadata: { authorization: '********', 'x-tenant': '********' } },
    });
    expect(res.text).not.toContain('s3cret');
    const id = res.body.id as string;
    const read = await call('GET', `/v1/checks/${id}`);
    expect(read.body.config.metadata).toEqual({ authorization: '********', 'x-tenant': '********' });
    expect(read.text).not.toContain('s3cret');
    expect(await probeStored(id)).toBe('Bearer s3cret');

    // ******** keeps the stored value; a key left out is removed.
    const kept = await call('PUT', `/v1/checks/${id}`, {
      config: { host: '127.0.0.1', port, service: 'shop.Orders', metadata: { authorization: '********' } },
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.config.metadata).toEqual({ authorization: '********' });
    expect((await api.app.checks.get(api.tenantId, id))?.config).toMatchObject({
      metadata: { authorization: 'Bearer s3cret' },
    });
    expect(await probeStored(id)).toBe('Bearer s3cret');

    // A new value replaces it.
    const replaced = await call('PUT', `/v1/checks/${id}`, {
      config: { host: '127.0.0.1', port, metadata: { authorization: 'Bearer n3w' } },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.text).not.toContain('n3w');
    expect(await probeStored(id)).toBe('Bearer n3w');

    // An update of other fields leaves the config, and its metadata, as stored.
    expect((await call('PUT', `/v1/checks/${id}`, { interval_seconds: 600 })).status).toBe(200);
    expect(await probeStored(id)).toBe('Bearer n3w');
  });

  it('never shows metadata values to a read-only key', async () => {
    const res = await create({ host: '127.0.0.1', port, metadata: { authorization: 'Bearer r3ad' } });
    expect(res.status, res.text).toBe(201);
    const key = await call('POST', '/v1/auth/keys', { label: 'reader', is_read_only: true });
    expect(key.status, key.text).toBe(201);
    const token = key.body.key as string;
    const one = await call('GET', `/v1/checks/${res.body.id}`, undefined, token);
    expect(one.status, one.text).toBe(200);
    expect(one.body.config.metadata).toEqual({ authorization: '********' });
    const list = await call('GET', '/v1/checks', undefined, token);
    expect(list.status, list.text).toBe(200);
    expect(list.text).not.toContain('r3ad');
  });

  it('refuses ******** where no stored value can be kept', async () => {
    const created = await create({ host: '127.0.0.1', port, metadata: { authorization: '********' } });
    expect(created.status, created.text).toBe(400);
    expect(created.body.details).toContainEqual(
      expect.objectContaining({ path: 'config.metadata.authorization' }),
    );
    const res = await create({ host: '127.0.0.1', port, metadata: { authorization: 'Bearer m0ve' } });
    expect(res.status, res.text).toBe(201);
    // A stored value goes only to the server it was given for.
    const moved = await call('PUT', `/v1/checks/${res.body.id}`, {
      config: { host: 'other.example', port, metadata: { authorization: '********' } },
    });
    expect(moved.status, moved.text).toBe(400);
    expect(moved.body.details).toContainEqual(
      expect.objectContaining({ path: 'config.metadata.authorization' }),
    );
    const unknown = await call('PUT', `/v1/checks/${res.body.id}`, {
      config: { host: '127.0.0.1', port, metadata: { 'x-other': '********' } },
    });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.details).toContainEqual(expect.objectContaining({ path: 'config.metadata.x-other' }));
  });

  it.each([
    [{ host: '', port: 50051 }, 'config.host'],
    [{ host: 'grpc.example', port: 70000 }, 'config.port'],
    [
      { host: 'grpc.example', port: 50051, metadata: { 'grpc-timeout': '1' } },
      'config.metadata.grpc-timeout',
    ],
    [{ host: 'grpc.example', port: 50051, use_tls: 'yes' }, 'config.use_tls'],
  ])('refuses a bad config naming the field (%j)', async (config, path) => {
    const res = await create(config);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details).toContainEqual(expect.objectContaining({ path }));
  });
});
