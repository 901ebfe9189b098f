import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessProber } from '../../lib/check-types/run-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { startHttpsServer, type TestHttpServer } from '../probes/support/http-server.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { probeCellSlot } from '../support/cell-fixtures.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { newEntity } from './check-fixtures.ts';

/**
 * Per-check TLS trust (`tls: {ca_pem, skip_verify}`) over the API in both runtimes: set, read back,
 * refused where it does not apply or is not PEM, cleared with null; and carried into the probe
 * job, so a self-signed target on 127.0.0.1 is up for the check that trusts it only.
 */

const fixtures = createTlsFixtures();
const CA = fixtures.selfSigned.cert;
const WARNING = 'certificate not verified (skip_verify)';
let target: TestHttpServer;
let interval = 3000;

beforeAll(async () => {
  target = await startHttpsServer(fixtures.selfSigned);
});
afterAll(async () => {
  await target?.close();
});

describe.each(runtimes)('per-check TLS trust ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const prober = inProcessProber({ clock: systemClock, allowPrivate: true });
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const http = (extra: Record<string, unknown> = {}) => {
    interval -= 1;
    return {
      entity_id: entityId,
      check_type: 'http',
      target_url: `https://127.0.0.1:${target.port}/ok`,
      failure_threshold: 1,
      interval_seconds: interval,
      ...extra,
    };
  };
  let slotMs = Date.now() - 3_000_000;
  /** Probes the check once in its cell; answers its latest result. */
  const probe = async (checkId: string) => {
    slotMs += 60_000;
    await probeCellSlot(api, prober, checkId, slotMs);
    const results = await call('GET', `/v1/checks/${checkId}/results`);
    expect(results.status, results.text).toBe(200);
    return results.body.results[0];
  };

  beforeAll(async () => {
    api = await start({ scheduler: false, env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' } });
    entityId = await newEntity(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('stores and returns tls on http and tls checks; null or absent reads null', async () => {
    const created = await call('POST', '/v1/checks', http({ tls: { ca_pem: CA } }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.tls).toEqual({ ca_pem: CA });
    const read = await call('GET', `/v1/checks/${created.body.id}`);
    expect(read.body.tls).toEqual({ ca_pem: CA });
    interval -= 1;
    const tls = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tls',
      config: { host: '127.0.0.1', port: target.port },
      tls: { skip_verify: true },
    });
    expect(tls.status, tls.text).toBe(201);
    expect(tls.body.tls).toEqual({ skip_verify: true });
    const plain = await call('POST', '/v1/checks', http());
    expect(plain.body.tls).toBeNull();
    const tcp = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: target.port },
    });
    expect(tcp.status, tcp.text).toBe(201);
    expect(tcp.body).not.toHaveProperty('tls');
  });

  it('refuses a ca_pem that is not 1 to 10 PEM certificates, naming tls.ca_pem', async () => {
    const cases = [
      'not a certificate',
      '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n',
      CA.repeat(11),
      `${CA}\nsome other text`,
    ];
    for (const ca_pem of cases) {
      const res = await call('POST', '/v1/checks', http({ tls: { ca_pem } }));
      expect(res.status, res.text).toBe(400);
      const detail = res.body.details?.find((d: { path: string }) => d.path === 'tls.ca_pem');
      expect(detail?.message, res.text).toMatch(/^[A-Z].*\.$/);
    }
    const big = await call('POST', '/v1/checks', http({ tls: { ca_pem: CA + ' '.repeat(16 * 1024) } }));
    expect(big.status).toBe(400);
    expect(big.text).toContain('16 KB');
    const unknown = await call('POST', '/v1/checks', http({ tls: { verify: false } }));
    expect(unknown.status).toBe(400);
  });

  it('refuses tls on a type it does not apply to, on create and on update', async () => {
    const res = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: target.port },
      tls: { skip_verify: true },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details?.[0]).toMatchObject({ path: 'tls' });
    expect(res.body.details?.[0].message).toMatch(/^tcp checks take no tls: only http, tls.* checks do\.$/);
    const tcp = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: target.port },
    });
    const update = await call('PUT', `/v1/checks/${tcp.body.id}`, { tls: { ca_pem: CA } });
    expect(update.status, update.text).toBe(400);
    expect(update.body.details?.[0]).toMatchObject({ path: 'tls' });
    const push = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      tls: { skip_verify: true },
    });
    expect(push.status, push.text).toBe(400);
  });

  it('sets, keeps and clears tls on update', async () => {
    const created = await call('POST', '/v1/checks', http());
    const id = created.body.id;
    const set = await call('PUT', `/v1/checks/${id}`, { tls: { ca_pem: CA, skip_verify: false } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.tls).toEqual({ ca_pem: CA });
    const other = await call('PUT', `/v1/checks/${id}`, { timeout_ms: 3000 });
    expect(other.body.tls).toEqual({ ca_pem: CA });
    const cleared = await call('PUT', `/v1/checks/${id}`, { tls: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.tls).toBeNull();
    expect((await call('GET', `/v1/checks/${id}`)).body.tls).toBeNull();
  });

  it('probes with the check’s own trust: ca_pem up, skip_verify up with the warning, none down', async () => {
    const trusted = await call('POST', '/v1/checks', http({ tls: { ca_pem: CA } }));
    const skipping = await call('POST', '/v1/checks', http({ tls: { skip_verify: true } }));
    const untrusted = await call('POST', '/v1/checks', http());
    expect(await probe(trusted.body.id)).toMatchObject({ outcome: 'up', status_code: 200 });
    const warned = await probe(skipping.body.id);
    expect(warned).toMatchObject({ outcome: 'up', details: { tls_warning: WARNING } });
    const refused = await probe(untrusted.body.id);
    expect(refused).toMatchObject({
      outcome: 'down',
      details: { error_code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    });
    interval -= 1;
    const tls = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tls',
      config: { host: '127.0.0.1', port: target.port, servername: 'localhost' },
      interval_seconds: interval,
      tls: { ca_pem: CA },
    });
    expect(await probe(tls.body.id)).toMatchObject({
      outcome: 'up',
      details: { days_left: expect.any(Number) },
    });
  });
});
