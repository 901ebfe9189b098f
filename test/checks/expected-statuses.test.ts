import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessProber } from '../../lib/check-types/run-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { listenOnLoopback, probeCellSlot } from '../support/cell-fixtures.ts';
import { newEntity } from './check-fixtures.ts';

/**
 * `expected_statuses` (DECISIONS.md "Checks (wave 5)"), in both runtimes: stored and returned
 * beside `expected_status` (its first code), changed and cleared by PUT, refused when malformed,
 * and judged by the real prober in the real cell runner against a target on 127.0.0.1.
 */

let target: Server;
let origin: string;
/** What the target answers; tests switch it. */
let answer = 204;

beforeAll(async () => {
  target = createServer((_req, res) => {
    // A 302 without a location is the final answer (a redirect with one would be followed).
    res.writeHead(answer).end();
  });
  origin = `http://127.0.0.1:${await listenOnLoopback(target)}`;
});
afterAll(() => {
  target?.close();
});

let interval = 2000;

describe.each(runtimes)('expected statuses ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const prober = inProcessProber({ clock: systemClock, allowPrivate: true });
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });

  beforeAll(async () => {
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' } });
  });
  afterAll(async () => {
    await api?.close();
  });

  const create = async (body: Record<string, unknown>) => {
    interval -= 1;
    return call('POST', '/v1/checks', {
      entity_id: await newEntity(api, { key: api.adminKey, name: `statuses-${interval}-${api.runtime}` }),
      check_type: 'http',
      target_url: `${origin}/`,
      failure_threshold: 1,
      // Its own interval: alone in its cell, so a slot probes this check only.
      interval_seconds: interval,
      ...body,
    });
  };

  it('stores and returns the list, with expected_status as its first code', async () => {
    const res = await create({ expected_statuses: ['200-299', 304] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ expected_status: 200, expected_statuses: ['200-299', 304] });
    const read = (await call('GET', `/v1/checks/${res.body.id}`)).body;
    expect(read).toMatchObject({ expected_status: 200, expected_statuses: ['200-299', 304] });

    const changed = await call('PUT', `/v1/checks/${res.body.id}`, { expected_statuses: [204, '300-399'] });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ expected_status: 204, expected_statuses: [204, '300-399'] });

    const single = await call('PUT', `/v1/checks/${res.body.id}`, { expected_status: 201 });
    expect(single.body).toMatchObject({ expected_status: 201, expected_statuses: null });
    expect((await call('GET', `/v1/checks/${res.body.id}`)).body).toMatchObject({
      expected_status: 201,
      expected_statuses: null,
    });
  });

  it('answers null for a check without a list', async () => {
    const res = await create({ expected_status: 202 });
    expect(res.body).toMatchObject({ expected_status: 202, expected_statuses: null });
  });

  it.each([
    ['a code out of range', { expected_statuses: [99] }, 'expected_statuses.0'],
    ['a range upside down', { expected_statuses: ['299-200'] }, 'expected_statuses.0'],
    ['a range not NNN-NNN', { expected_statuses: ['2xx'] }, 'expected_statuses.0'],
    ['an empty list', { expected_statuses: [] }, 'expected_statuses'],
    [
      'more than 20',
      { expected_statuses: Array.from({ length: 21 }, (_, i) => 200 + i) },
      'expected_statuses',
    ],
    ['a first code that differs', { expected_status: 200, expected_statuses: [204] }, 'expected_status'],
  ])('refuses %s', async (_what, body, field) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain(field);
  });

  it('refuses a list on a check of another type', async () => {
    const res = await call('POST', '/v1/checks', {
      entity_id: await newEntity(api, { key: api.adminKey, name: `tcp-statuses-${api.runtime}` }),
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: 1 },
      expected_statuses: [200],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain('expected_statuses');
  });

  it('judges 204, 302 and 500 against the list when probed', async () => {
    const created = (await create({ expected_statuses: [204, '300-399'] })).body;
    let slotMs = Date.now() - 3_600_000;
    const probedAt = async (status: number) => {
      answer = status;
      slotMs += 60_000;
      await probeCellSlot(api, prober, created.id, slotMs);
      return (await call('GET', `/v1/checks/${created.id}/results?limit=1`)).body.results[0];
    };
    expect(await probedAt(204)).toMatchObject({ success: true, status_code: 204 });
    expect(await probedAt(302)).toMatchObject({ success: true, status_code: 302 });
    expect(await probedAt(500)).toMatchObject({
      success: false,
      status_code: 500,
      error_message: 'expected status 204, 300-399, got 500',
    });
  });
});
